import { existsSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { upgradeMark } from './open';

/*
 * The last steps of a restore are renames, and a process can be killed between any two of them.
 * So the checked copy of the backup is first renamed to a name that says "ready" and carries the
 * time the replaced database is kept under; from then on the restore is decided, and whoever takes
 * the data folder next (the next start, the next restore) finishes it from what it finds.
 * Before that name exists the restore has changed nothing, and what it left is only removed.
 */

const READY = /^\.(.+)\.restoring-(.+)$/;
const PARTIAL = /^\.(.+)\.partial-\d+(-journal)?$/;

/** The name a checked copy waits under for the database `target` to be set aside as `keptAsOf(target, stamp)`. */
export const readyPath = (target: string, stamp: string) => join(dirname(target), `.${basename(target)}.restoring-${stamp}`);

export const keptAsOf = (target: string, stamp: string) => `${target}.before-restore-${stamp}`;

export const stampOf = (now: number) => new Date(now).toISOString().replace(/[:.]/g, '-');

/**
 * Sets the database `target` aside as `keptAs` and puts the ready copy in its place. Its log and
 * shared memory go first and the database last, so a process killed in between leaves the database
 * with what is still beside it, and the next finish moves the rest after it. Returns where the
 * replaced database went (null when there was none).
 */
export function finishRestore(target: string, ready: string, keptAs: string, now: number): string | null {
  let kept: string | null = null;
  if (existsSync(target)) {
    foldLog(target);
    // Something already there under the kept name is another database (made on the empty folder meanwhile): kept too, apart.
    const destination = existsSync(keptAs) ? keptAsOf(target, `${stampOf(now)}-2`) : keptAs;
    for (const suffix of ['-wal', '-shm', '']) {
      if (existsSync(target + suffix)) renameSync(target + suffix, destination + suffix);
    }
    kept = destination;
  } else if (existsSync(keptAs)) {
    kept = keptAs; // set aside before the process was killed
  }
  // A log left without its database (its database moved, itself not yet) follows it.
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(target + suffix) && kept && !existsSync(kept + suffix)) renameSync(target + suffix, kept + suffix);
  }
  renameSync(ready, target);
  // An upgrade the replaced database had under way is not this one's: the backup gets a copy of its own at its upgrade.
  try {
    unlinkSync(upgradeMark(target));
  } catch {
    // none under way
  }
  return kept;
}

/** Copies what the log holds into the database, when it can, so the database set aside is whole on its own. */
function foldLog(target: string): void {
  try {
    const db = new Database(target, { fileMustExist: true });
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  } catch {
    // a damaged database is kept as it is, its log beside it
  }
}

/** Whether a restore of `target` was killed once decided (finishInterruptedRestore has work). */
export function hasInterruptedRestore(target: string): boolean {
  try {
    return readdirSync(dirname(target)).some((name) => READY.exec(name)?.[1] === basename(target));
  } catch {
    return false;
  }
}

/**
 * Finishes a restore of the data folder's database `target` that was killed after its copy was
 * checked, and removes the copies of restores killed before that. The caller holds the data
 * folder's lock, so none of them is in progress. Returns what was done, in words, or null.
 */
export function finishInterruptedRestore(target: string, now: number): string | null {
  const folder = dirname(target);
  const names = readdirSync(folder);
  const said: string[] = [];
  for (const name of names.sort()) {
    const ready = READY.exec(name);
    if (!ready || ready[1] !== basename(target)) continue;
    const kept = finishRestore(target, join(folder, name), keptAsOf(target, ready[2]!), now);
    said.push(`An interrupted restore of ${target} was finished${kept ? `; the database it replaced is kept as ${kept}` : ''}.`);
  }
  for (const name of names) {
    const partial = PARTIAL.exec(name);
    if (!partial || partial[1] !== basename(target)) continue;
    try {
      unlinkSync(join(folder, name));
    } catch {
      // gone already
    }
  }
  return said.length ? said.join(' ') : null;
}
