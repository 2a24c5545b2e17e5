import { appendFileSync, existsSync } from 'node:fs';
import { tryLock, waitForLock } from './lockFile';
import { SPOOL_MAX_BYTES, SPOOL_MAX_PULSES, type Spool } from './spool';
import { fileSize, type SpoolEntry } from './spoolEntry';

/*
 * Sending what the spool holds (`cronbeat spool flush`, and every pulse sent after an outage):
 * one flush at a time, under a lock file held for the whole of it; entries in order; each
 * delivered id recorded in spool.sent before the next send; the file compacted when done.
 */

/** What a replay did to one entry: sent, refused for good by the agent (with its answer), or not deliverable now. */
export type ReplayVerdict = 'delivered' | { refusedBecause: string } | 'unreachable';

/** An entry the agent refused for good, and what it answered ("401 Unauthenticated."). */
export type RefusedEntry = SpoolEntry & { refusedBecause: string };

export interface ReplayResult {
  /** Another process was replaying; nothing was done. */
  busy: boolean;
  delivered: SpoolEntry[];
  rejected: RefusedEntry[];
  /** Entries still waiting afterwards, oldest first. */
  waiting: SpoolEntry[];
}

/**
 * Offers every waiting entry, oldest first, to `send`, including entries appended while the
 * replay runs. An entry `send` cannot deliver now stays; `send` keeps the order by answering
 * `unreachable` for later entries of the same agent. With `waitMs`, waits that long for a
 * replay running elsewhere; otherwise gives up at once and reports `busy` (that replay then
 * takes along what is appended meanwhile: it checks for new entries after letting go).
 */
export async function replay(spool: Spool, send: (entry: SpoolEntry) => Promise<ReplayVerdict>, waitMs = 0): Promise<ReplayResult> {
  const result: ReplayResult = { busy: false, delivered: [], rejected: [], waiting: [] };
  if (!existsSync(spool.file)) return result;
  let lock = waitMs > 0 ? await waitForLock(spool.replayLock, waitMs) : tryLock(spool.replayLock);
  if (!lock) return { ...result, busy: true, waiting: fileSize(spool.file) > SPOOL_MAX_BYTES ? [] : await spool.pending() };
  const offered = new Set<string>();
  const unoffered = async () => (await spool.pending()).filter((entry) => !offered.has(entry.id));
  while (lock) {
    try {
      // A spool past its bounds is trimmed before it is read whole.
      if (fileSize(spool.file) > SPOOL_MAX_BYTES) await spool.rewrite(false);
      let batch = await unoffered();
      if (batch.length > SPOOL_MAX_PULSES) {
        await spool.rewrite(false);
        batch = await unoffered();
      }
      let unreadable = spool.unreadable;
      for (; batch.length > 0; batch = await unoffered(), unreadable += spool.unreadable) {
        for (const entry of batch) {
          offered.add(entry.id);
          const verdict = await send(entry);
          if (verdict === 'unreachable') {
            result.waiting.push(entry);
            continue;
          }
          // Recorded before the next send, so a replay cut short here never sends this one again.
          appendFileSync(spool.sentFile, `${entry.id}\n`, { mode: 0o600 });
          if (verdict === 'delivered') result.delivered.push(entry);
          else result.rejected.push({ ...entry, refusedBecause: verdict.refusedBecause });
          lock.refresh();
        }
      }
      if (result.waiting.length === 0 || unreadable > 0) await spool.rewrite(true);
    } finally {
      lock.release();
    }
    // A writer that found us busy appended after our last look: take it along, unless
    // another replay has started and will.
    lock = (await unoffered()).length > 0 ? tryLock(spool.replayLock) : null;
  }
  return result;
}

/** How many monitors' refusals are said one by one; the rest are counted in one more line. */
const MAX_REFUSAL_LINES = 5;

/**
 * What the agent refused for good in a replay, one line per monitor and answer: a spool of
 * thousands of pulses for a deleted monitor is one line, not thousands in a job's cron mail.
 */
export function refusalLines(rejected: RefusedEntry[]): string[] {
  const groups = new Map<string, { token: string; reason: string; count: number }>();
  for (const entry of rejected) {
    const key = `${entry.pulse.tokenOrSlug}\n${entry.refusedBecause}`;
    const group = groups.get(key) ?? { token: entry.pulse.tokenOrSlug, reason: entry.refusedBecause, count: 0 };
    group.count++;
    groups.set(key, group);
  }
  const all = [...groups.values()];
  const lines = all
    .slice(0, MAX_REFUSAL_LINES)
    .map(({ token, reason, count }) =>
      count === 1 ? `dropped a spooled pulse for ${token}: the agent refused it (${reason})` : `dropped ${count} spooled pulses for ${token}: the agent refused them (${reason})`,
    );
  const rest = all.slice(MAX_REFUSAL_LINES);
  if (rest.length > 0) {
    const pulses = rest.reduce((sum, { count }) => sum + count, 0);
    lines.push(`dropped ${pulses} more spooled pulse${pulses === 1 ? '' : 's'} for ${rest.length} other monitor${rest.length === 1 ? '' : 's'}, refused by the agent too`);
  }
  return lines;
}
