import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { SqliteOptions } from './open';
import { ensurePrivateFile } from '../dataFolder/privateFolder';
import { removeQuietly } from './backupFiles';

/*
 * One agent per data folder. The lock is an exclusive SQLite lock on `cronbeat.lock`, held for
 * the agent's life: the operating system drops it when the process ends, however it ends, so a
 * lock left by a crash or SIGKILL is taken over without any guessing about stale pids. The pid
 * in `cronbeat.pid` only names the holder in the message.
 *
 * Never open cronbeat.lock with plain fs calls in a process that holds it: closing any
 * descriptor of a file drops that process's POSIX locks on it.
 */

export class DataFolderInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number | null,
  ) {
    const holder = pid ? `process ${pid}` : 'another process';
    super(`The data folder ${dataDir} is in use by another Cronbeat agent (${holder}); stop it first or use another --data-dir.`);
  }
}

export interface DataFolderLock {
  /** Frees the folder; the lock file stays (removing it could let two processes lock different files). */
  release(): void;
}

const lockFile = (dataDir: string) => join(dataDir, 'cronbeat.lock');
const pidFile = (dataDir: string) => join(dataDir, 'cronbeat.pid');

/** Takes the data folder for this process, or throws DataFolderInUseError naming the holder. */
export function lockDataFolder(dataDir: string, sqlite: SqliteOptions = {}): DataFolderLock {
  const file = lockFile(dataDir);
  ensurePrivateFile(file);
  const db = new Database(file, { timeout: 0, nativeBinding: sqlite.nativeBinding });
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE; COMMIT'); // in exclusive mode the lock outlives the transaction
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new DataFolderInUseError(dataDir, lockHolder(dataDir));
    throw error;
  }
  writeFileSync(pidFile(dataDir), `${process.pid}\n`, { mode: 0o600 });
  return {
    release() {
      if (!db.open) return;
      if (lockHolder(dataDir) === process.pid) removeQuietly(pidFile(dataDir));
      db.close();
    },
  };
}

/**
 * Whether an agent holds `dataDir` now, asked without taking it: its exclusive lock refuses even a
 * read of the lock file. False when there is no lock file (no agent ever ran there).
 */
export function isDataFolderHeld(dataDir: string, sqlite: SqliteOptions = {}): boolean {
  let db: Database.Database;
  try {
    db = new Database(lockFile(dataDir), { readonly: true, fileMustExist: true, timeout: 0, nativeBinding: sqlite.nativeBinding });
  } catch {
    return false;
  }
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'SQLITE_BUSY';
  } finally {
    db.close();
  }
}

/** The pid written by the process holding the folder, or null when unknown. */
export function lockHolder(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(pidFile(dataDir), 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
