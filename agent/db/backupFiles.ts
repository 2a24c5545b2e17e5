import { accessSync, closeSync, constants, copyFileSync, existsSync, openSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
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
