import { accessSync, closeSync, constants, copyFileSync, existsSync, lstatSync, openSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';

/* The files of a backup or a restore in progress: made private before anything is written into them, and the database read. */

export function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // not there
  }
}

/** Creates `file` empty and private (0600) before anything is written into it; an old one is replaced. */
export function createPrivate(file: string): void {
  removeQuietly(file);
  closeSync(openSync(file, 'wx', 0o600));
}

/**
 * The database to copy, opened. On a disk mounted read-only (as the kernel does to a failing one,
 * or a rescued disk) SQLite cannot make the -shm a database in WAL mode needs: nothing can write
 * there, so a private copy of the database and its log, `staged`, in the backup's work folder, is read instead.
 */
export function openSource(source: string, staged: string): Database.Database {
  try {
    const db = new Database(source, { fileMustExist: true });
    try {
      db.pragma('schema_version'); // the first read, where a missing -shm shows
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  } catch (error) {
    if ((error as { code?: string }).code !== 'SQLITE_CANTOPEN' || canWrite(dirname(source))) throw error;
  }
  for (const suffix of ['', '-wal']) {
    if (!existsSync(source + suffix)) continue;
    createPrivate(staged + suffix);
    copyFileSync(source + suffix, staged + suffix);
  }
  return new Database(staged, { fileMustExist: true });
}

function canWrite(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes the work folders (`.NAME.partial-PID`) that backups to `out` killed outright (SIGKILL,
 * a power cut) left beside it: each as large as the database, they filled the disk one killed
 * backup at a time (a nightly `timeout -s KILL`). Only this user's, and only a process's that is gone.
 */
export function removeStaleWork(out: string): void {
  const folder = dirname(out);
  const prefix = `.${basename(out)}.partial-`;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.slice(prefix.length));
    if (!name.startsWith(prefix) || !Number.isInteger(pid) || pid <= 0 || pid === process.pid || isRunning(pid)) continue;
    const work = join(folder, name);
    const stats = lstatSync(work, { throwIfNoEntry: false });
    if (!stats?.isDirectory() || (process.getuid && stats.uid !== process.getuid())) continue;
    rmSync(work, { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // someone else's: running
  }
}
