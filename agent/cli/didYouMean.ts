import { distance } from 'fastest-levenshtein';

/*
 * "Did you mean …?" as git says it for a mistyped sub-command: the candidates spelt closest to
 * what was typed, letter case aside, within a few edits (a third of the word, at least two).
 */

/** Edits from `a` to `b`, two swapped neighbours ("eidt" for "edit") counting as one. */
function edits(a: string, b: string): number {
  let best = distance(a, b);
  for (let i = 0; i + 1 < a.length && best > 1; i++) {
    const swapped = a.slice(0, i) + a[i + 1] + a[i] + a.slice(i + 2);
    best = Math.min(best, 1 + distance(swapped, b));
  }
  return best;
}

/** The candidates closest to `typed` (all that tie, up to `max`) when close enough; empty when none is. */
export function closestTo(typed: string, candidates: readonly string[], max = 3): string[] {
  const wanted = typed.toLowerCase();
  const allowed = Math.max(2, Math.floor(wanted.length / 3));
  const scored = candidates
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      return { candidate, edits: lower === wanted ? 0 : lower.includes(wanted) || wanted.includes(lower) ? 1 : edits(wanted, lower) };
    })
    .filter(({ edits: n }) => n <= allowed);
  const best = Math.min(...scored.map(({ edits: n }) => n));
  return scored
    .filter(({ edits: n }) => n === best)
    .slice(0, max)
    .map(({ candidate }) => candidate);
}

/** " Did you mean "status"?" / " Did you mean "a" or "b"?", or "" when nothing is close. */
export function didYouMean(typed: string, candidates: readonly string[], quote = true): string {
  const close = closestTo(typed, candidates).map((c) => (quote ? `"${c}"` : c));
  if (close.length === 0) return '';
  const list = close.length === 1 ? close[0] : `${close.slice(0, -1).join(', ')} or ${close[close.length - 1]}`;
  return ` Did you mean ${list}?`;
}
