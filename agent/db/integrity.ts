import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';

/*
 * A database damaged on disk (a bad sector, a copy cut short, another tool writing into it).
 * SQLite notices only when it reads the damaged page, so the agent checks at start and answers
 * a clear error for any page it cannot read later.
 */

/** True when `error` is SQLite saying a page of the file is not what it should be. */
export function isDatabaseDamaged(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_') || code === 'SQLITE_NOTADB');
}

/** What to do about a damaged database, in the words every message uses. */
export const RESTORE_ADVICE = "bring back your latest backup with `cronbeat restore FILE`";

/** Memory-mapped reads make the check about twice as fast as going through SQLite's page cache. */
const CHECK_MMAP_BYTES = 8 * 1024 ** 3;

/**
 * Reads every page of the database and checks its structure (PRAGMA quick_check, stopping at the
 * first problem): about half a second per gigabyte. Returns that problem, or null when the file is whole.
 */
export function firstDamage(db: { pragma(source: string, options?: { simple: boolean }): unknown }): string | null {
  db.pragma(`mmap_size = ${CHECK_MMAP_BYTES}`);
  try {
    return describeQuickCheck(String(db.pragma('quick_check(1)', { simple: true })));
  } finally {
    db.pragma('mmap_size = 0');
  }
}

/** The first problem in the text of PRAGMA quick_check(1), or null for "ok". */
export function describeQuickCheck(result: string): string | null {
  if (result === 'ok') return null;
  // SQLite heads a problem in a b-tree with "*** in database main ***" on a line of its own.
  const lines = result.split('\n').map((line) => line.trim()).filter((line) => line && !/^\*\*\* in database \w+ \*\*\*$/.test(line));
  return lines[0] ?? result.trim();
}

/*
 * The same check on a connection of its own in a worker thread, so the agent answers reads while
 * it runs. The worker's code is inline: the agent ships as one bundled file.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqliteModule);
let db;
try {
  db = new Database(workerData.file, { readonly: true, fileMustExist: true, nativeBinding: workerData.nativeBinding });
  db.pragma('mmap_size = ' + workerData.mmapBytes);
  parentPort.postMessage({ result: String(db.pragma('quick_check(1)', { simple: true })) });
} catch (error) {
  parentPort.postMessage({ error: { message: String(error && error.message), code: error && error.code } });
} finally {
  if (db) db.close();
}
`;

/** Where better-sqlite3 is, for the worker's require; null when this process cannot say. */
function sqliteModulePath(): string | null {
  try {
    const here = typeof require === 'function' ? require : createRequire(join(process.cwd(), 'package.json'));
    return here.resolve('better-sqlite3');
  } catch {
    return null;
  }
}

/**
 * Runs firstDamage over `file` in a worker thread: the problem found, or null when the file is
 * whole. Falls back to this thread when a worker cannot load SQLite. An error SQLite raises while
 * reading (a page it cannot read at all) rejects with that error.
 */
export function firstDamageInWorker(file: string, nativeBinding?: string): Promise<string | null> {
  const sqliteModule = sqliteModulePath();
  const inThisThread = () => {
    const db = new Database(file, { readonly: true, fileMustExist: true, nativeBinding });
    try {
      return firstDamage(db);
    } finally {
      db.close();
    }
  };
  if (!sqliteModule) return new Promise((resolve) => setImmediate(resolve)).then(inThisThread);
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, sqliteModule, nativeBinding, mmapBytes: CHECK_MMAP_BYTES } });
    worker.once('message', (message: { result?: string; error?: { message: string; code?: string } }) => {
      if (message.error) reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      else resolve(describeQuickCheck(message.result!));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`The integrity check stopped (exit ${code})`))));
    worker.unref(); // an agent stopped during its check need not wait for it
  });
}
