import { chmodSync, copyFileSync, existsSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { databaseFile } from './dataDir';
import { migrations } from './migrations';

/*
 * Backups are single self-contained SQLite files (rollback journal, no -wal beside them), made
 * with SQLite's online backup so a running agent keeps working, and checked before they are
 * trusted: on the way out (the copy) and on the way back in (the file to restore).
 */

/** A file that cannot be used as a Cronbeat backup; the message says why, in one line. */
export class BackupRefusedError extends Error {}

const REQUIRED_TABLES = ['companies', 'api_tokens', 'servers', 'monitors', 'notifications'];

/** Checks that `file` is a whole Cronbeat database this version can run; returns its schema version. */
export function checkDatabaseFile(file: string): number {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupRefusedError(`${file} does not exist or is not a file.`);
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true });
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new BackupRefusedError(`${file} is damaged (integrity check: ${String(integrity).split('\n')[0]}).`);
    const schema = db.pragma('user_version', { simple: true }) as number;
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    if (schema < 1 || REQUIRED_TABLES.some((table) => !tables.has(table))) throw new BackupRefusedError(`${file} is a SQLite file but not a Cronbeat database.`);
    if (schema > migrations.length) {
      throw new BackupRefusedError(`${file} was written by a newer Cronbeat (schema ${schema}, this one knows ${migrations.length}).`);
    }
    return schema;
  } catch (error) {
    if (error instanceof BackupRefusedError) throw error;
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new BackupRefusedError(`${file} is not a readable Cronbeat database (${code}).`);
  } finally {
    db?.close();
  }
}

/** A sibling path for work in progress, so the final rename is atomic and a crash leaves no half file. */
const partialPath = (file: string) => join(dirname(file), `.${basename(file)}.partial-${process.pid}`);

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // not there
  }
}

/**
 * Copies the database at `source` to `out` while it may be in use: SQLite's online backup, then
 * the copy switched to a rollback journal (one file), checked, made 0600 and renamed into place.
 */
export async function backupDatabase(source: string, out: string): Promise<{ schema: number; bytes: number }> {
  if (resolve(out) === resolve(source)) throw new BackupRefusedError('The backup cannot overwrite the database it copies.');
  if (!existsSync(source)) throw new BackupRefusedError(`There is no Cronbeat database at ${source}.`);
  const partial = partialPath(out);
  const db = new Database(source, { fileMustExist: true });
  try {
    // After the first 100 pages, the rest in one step: one read snapshot, no restarts under load.
    await db.backup(partial, { progress: ({ remainingPages }) => Math.max(100, remainingPages) });
    const copy = new Database(partial);
    copy.pragma('journal_mode = DELETE');
    copy.close();
    const schema = checkDatabaseFile(partial);
    if (process.platform !== 'win32') chmodSync(partial, 0o600);
    renameSync(partial, out);
    return { schema, bytes: statSync(out).size };
  } catch (error) {
    removeQuietly(partial);
    throw error;
  } finally {
    db.close();
  }
}

/**
 * Replaces the data folder's database with the backup `file`, after checking it. The caller
 * holds the folder's lock. The database replaced is kept beside it, named with the time.
 */
export function restoreDatabase(file: string, dataDir: string, now: number): { keptAs: string | null } {
  if (existsSync(`${file}-wal`)) {
    throw new BackupRefusedError(`${file} has a -wal file beside it: it is a live database, not a backup. Make one with \`cronbeat backup\`.`);
  }
  const target = databaseFile(dataDir);
  const partial = partialPath(target);
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupRefusedError(`${file} does not exist or is not a file.`);
  try {
    copyFileSync(file, partial);
    if (process.platform !== 'win32') chmodSync(partial, 0o600);
    checkDatabaseFile(partial);
  } catch (error) {
    removeQuietly(partial);
    throw error;
  }
  const keptAs = existsSync(target) ? setAside(target, now) : null;
  renameSync(partial, target);
  return { keptAs };
}

/** Folds the WAL into the database (when it can) and renames it, with its -wal and -shm, out of the way. */
function setAside(target: string, now: number): string {
  try {
    const db = new Database(target, { fileMustExist: true });
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  } catch {
    // a damaged database is kept as it is, sidecars included
  }
  const keptAs = `${target}.before-restore-${new Date(now).toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(target + suffix)) renameSync(target + suffix, keptAs + suffix);
  }
  return keptAs;
}
