import { appendFileSync, existsSync } from 'node:fs';
import { tryLock } from './lockFile';
import type { Spool, SpoolEntry } from './spool';

/**
 * Moves what waits in `from` (the temporary folder's spool, kept while the data folder could not
 * be used) and `take` accepts to the end of `into`, so the replay sends it, in order, with the rest. Each entry keeps
 * its id: added to `into` first and only then marked sent in `from`, so a process killed between
 * the two sends it twice at worst (the agent stores a pulse once by its key), never loses it.
 * Returns how many were moved; 0 when another process holds `from` (it replays it itself).
 */
export async function adoptSpool(from: Spool, into: Spool, take: (entry: SpoolEntry) => boolean = () => true): Promise<number> {
  if (!existsSync(from.file)) return 0;
  const lock = tryLock(from.replayLock);
  if (!lock) return 0;
  try {
    const entries = (await from.pending()).filter(take);
    const there = new Set((await into.pending()).map((entry) => entry.id));
    await into.appendEntries(entries.filter((entry) => !there.has(entry.id)));
    if (entries.length > 0) appendFileSync(from.sentFile, entries.map((entry) => `${entry.id}\n`).join(''), { mode: 0o600 });
    await from.rewrite(true);
    return entries.length;
  } finally {
    lock.release();
  }
}
