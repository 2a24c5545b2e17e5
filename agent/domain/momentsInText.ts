/**
 * The moments inside a message the agent wrote for people: an alert reason or a notification
 * text carries times as describeMoment (alertReason.ts) and formatUtc (certificates.ts) write
 * them — "2026-11-21 10:00 Europe/Paris (09:00 UTC)", "2026-11-22 22:32 UTC". The API keeps
 * that text as it is (it is stored, and spec clients show it); the dashboard uses these pieces
 * to show each moment in the viewer's own zone, with UTC on hover.
 */

export type TextPiece = string | { at: number; written: string };

const DATE = String.raw`(\d{4})-(\d{2})-(\d{2})`;
const TIME = String.raw`(\d{2}):(\d{2})`;
const ZONE = String.raw`[A-Za-z][A-Za-z0-9_+\-]*(?:\/[A-Za-z0-9_+\-]+)*`;
const MOMENT = new RegExp(
  String.raw`${DATE} ${TIME} ${ZONE} \((?:${DATE} )?${TIME} UTC\)|${DATE} ${TIME} UTC`,
  'g',
);

/** `text` cut into plain strings and moments (UTC milliseconds); a text without moments is one piece. */
export function momentsInText(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(MOMENT)) {
    const at = momentOf(match);
    if (at === null) continue;
    if (match.index > last) pieces.push(text.slice(last, match.index));
    pieces.push({ at, written: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return pieces;
}

function momentOf(match: RegExpMatchArray): number | null {
  const n = (i: number) => Number(match[i]);
  let at: number;
  if (match[1] !== undefined) {
    // Zone form: the UTC time in brackets is exact; its date is the local date unless written.
    const [year, month, day] = match[6] !== undefined ? [n(6), n(7), n(8)] : [n(1), n(2), n(3)];
    at = Date.UTC(year, month - 1, day, n(9), n(10));
  } else {
    at = Date.UTC(n(11), n(12) - 1, n(13), n(14), n(15));
  }
  return Number.isNaN(at) ? null : at;
}
