import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runPartsRuns } from './cronNames';
import { CrontabReadError } from './sources';
import type { SnapshotJob } from './snapshot';

/*
 * The folders run-parts runs as root (from /etc/crontab, cron.d's 0hourly, or anacron): a script
 * planted or changed there is a root job as much as a crontab line, and no crontab names it.
 */

export const RUN_PARTS_FOLDERS = ['/etc/cron.hourly', '/etc/cron.daily', '/etc/cron.weekly', '/etc/cron.monthly'];

/**
 * Whether this machine's run-parts is Debian's (debianutils, a program, strict about names)
 * rather than cronie's shell script: a script starts with "#!". When neither is found, cronie's
 * rules, which run every name Debian's would, so no script runs unwatched.
 */
export function debianRunParts(): boolean {
  for (const path of ['/usr/bin/run-parts', '/bin/run-parts']) {
    if (!existsSync(path)) continue;
    const start = Buffer.alloc(2);
    try {
      const fd = openSync(path, 'r');
      try {
        readSync(fd, start, 0, 2, 0);
      } finally {
        closeSync(fd);
      }
    } catch {
      continue;
    }
    return start.toString('latin1') !== '#!';
  }
  return false;
}

/** SHA-256 of a file read in pieces: a large program dropped in a folder is hashed without filling memory. */
function fileHash(path: string): string {
  const hash = createHash('sha256');
  const piece = Buffer.alloc(1 << 16);
  const fd = openSync(path, 'r');
  try {
    for (let read = readSync(fd, piece); read > 0; read = readSync(fd, piece)) hash.update(piece.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** A file of a folder run-parts runs, as run-parts reads the folder. */
export interface RunPartsScript {
  name: string;
  path: string;
  /** Executable: run-parts runs it (made executable, one skipped starts running). */
  runs: boolean;
}

/** Why `path` could not be read, for the user; null when it went away meanwhile (nothing to say). */
function unreadable(path: string, error: unknown): CrontabReadError | null {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return null;
  return new CrontabReadError(`cannot read ${path}: ${code === 'EACCES' ? 'permission denied (run as root to see every crontab)' : code}`);
}

/**
 * The files of `folder` whose name run-parts would run (runPartsRuns), executable or not, in its
 * order; links followed and what is no file skipped, as run-parts does. `crontab watch` and
 * `crontab scan` both read a folder through this. Null when the folder is not there. Throws
 * CrontabReadError when it cannot be read.
 */
export function runPartsScripts(folder: string, debian: boolean): RunPartsScript[] | null {
  let names: string[];
  try {
    names = readdirSync(folder).sort();
  } catch (error) {
    const why = unreadable(folder, error);
    if (why === null) return null;
    throw why;
  }
  const scripts: RunPartsScript[] = [];
  for (const name of names.filter((found) => runPartsRuns(found, debian))) {
    const path = join(folder, name);
    try {
      const found = statSync(path);
      if (found.isFile()) scripts.push({ name, path, runs: (found.mode & 0o111) !== 0 });
    } catch (error) {
      const why = unreadable(path, error);
      if (why !== null) throw why;
    }
  }
  return scripts;
}

/**
 * One entry per script of `folder` (runPartsScripts), as root's: its text names it, whether it
 * runs and the start of its content's hash, so a change of either is one `altered`. Null when the
 * folder is not there. Throws CrontabReadError when it cannot be read.
 */
export function runPartsEntries(folder: string, debian: boolean): SnapshotJob[] | null {
  const scripts = runPartsScripts(folder, debian);
  if (scripts === null) return null;
  const entries: SnapshotJob[] = [];
  for (const { name, path, runs } of scripts) {
    let hash: string;
    try {
      hash = fileHash(path);
    } catch (error) {
      const why = unreadable(path, error);
      if (why === null) continue; // removed while the folder was read
      throw why;
    }
    entries.push({
      source: folder,
      user: 'root',
      text: `${path}, run by run-parts (${runs ? 'executable' : 'not executable: skipped'}; sha256 ${hash.slice(0, 12)})`,
      hash: createHash('sha256').update(`run-parts\0${runs}\0${hash}`).digest('hex'),
      script: name,
    });
  }
  return entries;
}
