import { accessSync, closeSync, constants, copyFileSync, existsSync, lstatSync, mkdirSync, openSync, readSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { databaseFile } from '../dataFolder/dataDir';
import { userName } from '../dataFolder/privateFolder';
import { migrations } from './migrations';
import { carryOverUndoneSecrets, type CarriedOver } from './restoreCarryOver';
import { createPrivate, openSource, removeQuietly, removeStaleWork } from './backupFiles';
import { finishRestore, keptAsOf, readyPath, stampOf } from './restoreFinish';

/*
 * Backups are single self-contained SQLite files (rollback journal, no -wal beside them), made
 * with SQLite's online backup so a running agent keeps working, and checked before they are
 * trusted: on the way out (the copy) and on the way back in (the file to restore).
 */

/** A file that cannot be used as a Cronbeat backup; the message says why, in one line. */
export class BackupRefusedError extends Error {}

const REQUIRED_TABLES = ['companies', 'api_tokens', 'servers', 'monitors', 'notifications'];

/**
 * Checks that `file` is a whole Cronbeat database this version can run; returns its schema
 * version. Messages call it `name` (the user's file, when `file` is our temporary copy of it).
 */
export function checkDatabaseFile(file: string, name = file): number {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupRefusedError(`${name} does not exist or is not a file.`);
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true });
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new BackupRefusedError(`${name} is damaged (integrity check: ${String(integrity).split('\n')[0]}).`);
    const schema = db.pragma('user_version', { simple: true }) as number;
    const tables = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[]);
    if (schema < 1 || REQUIRED_TABLES.some((table) => !tables.has(table))) throw new BackupRefusedError(`${name} is a SQLite file but not a Cronbeat database.`);
    if (schema > migrations.length) {
      throw new BackupRefusedError(`${name} was written by a newer Cronbeat (schema ${schema}, this one knows ${migrations.length}).`);
    }
    return schema;
  } catch (error) {
    if (error instanceof BackupRefusedError) throw error;
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new BackupRefusedError(`${name} is not a readable Cronbeat database (${code}).`);
  } finally {
    db?.close();
  }
}

/** A sibling path for work in progress (a file, or for a backup a folder), so the final rename is atomic and a crash leaves no half file. */
const partialPath = (file: string) => join(dirname(file), `.${basename(file)}.partial-${process.pid}`);

const INTERRUPTIONS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs `work` with what it leaves in progress taken away by `remove` if the process is
 * interrupted meanwhile (Ctrl-C, kill, a closed terminal); then the process ends as the signal asked.
 */
async function removedOnInterrupt<T>(remove: () => void, work: () => T | Promise<T>): Promise<T> {
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGHUP' ? 1 : 15));
  };
  for (const signal of INTERRUPTIONS) process.on(signal, onSignal);
  try {
    return await work();
  } finally {
    for (const signal of INTERRUPTIONS) process.off(signal, onSignal);
  }
}

/**
 * Lets a signal that arrived during a long synchronous step (the copy) reach its handler before
 * the result is kept: otherwise the handler is removed unheard and an interrupted copy ends as a success.
 */
const signalsHeard = () => new Promise<void>((resolvePromise) => setImmediate(resolvePromise));

/** An error from the work on `partial`, told in terms of the user's `file`. */
function inTermsOf(error: unknown, partial: string, file: string, doing: string): Error {
  if (error instanceof BackupRefusedError) return error;
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const said = String(message ?? error).split(partial).join(file);
  return new BackupRefusedError(`Could not ${doing} ${file}: ${said}${code && !said.includes(code) ? ` (${code})` : ''}`);
}

/** Bytes copied so far of the whole, for a progress line; called now and then during a long copy. */
export type CopyProgress = (doneBytes: number, totalBytes: number) => void;

/**
 * How many pages the online backup copies in its next step. Without anyone watching, the rest
 * in one step after the first 100 pages: one read snapshot, no restarts under load. With
 * `onProgress`, a twentieth at a time, so the copy can be seen moving; should a write to the
 * database restart the copy (fewer pages done than before), the rest goes in one step as
 * without.
 */
function backupSteps(pageSize: number, onProgress: CopyProgress | undefined) {
  let lowestRemaining = Infinity;
  return ({ totalPages, remainingPages }: { totalPages: number; remainingPages: number }): number => {
    if (!onProgress) return Math.max(100, remainingPages);
    onProgress((totalPages - remainingPages) * pageSize, totalPages * pageSize);
    const restarted = remainingPages > lowestRemaining;
    lowestRemaining = Math.min(lowestRemaining, remainingPages);
    return restarted ? Math.max(100, remainingPages) : Math.max(100, Math.ceil(totalPages / 20));
  };
}

/**
 * Copies the database at `source` to `out` while it may be in use: SQLite's online backup, then
 * the copy switched to a rollback journal (one file), checked, made 0600 and renamed into place.
 */
export async function backupDatabase(source: string, out: string, onProgress?: CopyProgress): Promise<{ schema: number; bytes: number }> {
  refuseUnreadable(source);
  if (!existsSync(source)) throw new BackupRefusedError(`There is no Cronbeat database at ${source}.`);
  const folder = dirname(resolve(out));
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new BackupRefusedError(`The folder ${folder} does not exist: create it first (mkdir -p ${folder}), or give --out a file in a folder that does.`);
  }
  // The rename replaces whatever is there: /dev/null made a file, for everyone on the machine.
  const there = lstatSync(out, { throwIfNoEntry: false });
  if (there && !there.isFile() && !there.isSymbolicLink()) {
    throw new BackupRefusedError(`--out ${out} is not a file (a pipe or a device, such as /dev/null), which the backup would replace: give a file to write.`);
  }
  // Compared once links are followed: the rename would put a snapshot over the live database or its log.
  const live = realpathSync(source);
  if (['', '-wal', '-shm', '-journal'].some((suffix) => join(realpathSync(folder), basename(out)) === live + suffix)) {
    throw new BackupRefusedError(`--out ${out} is the database the backup copies (or one of its files): give a file elsewhere.`);
  }
  // The work goes on in a folder of its own, 0700: in a folder others may write to (/tmp), no one
  // can put a file where SQLite will open the copy's journal (a planted journal is rolled into the copy).
  const work = partialPath(out);
  const partial = join(work, 'backup.db');
  const staged = join(work, 'source.db');
  let made = false; // what is in the way and not ours is left alone
  const removeWork = () => made && rmSync(work, { recursive: true, force: true });
  let db: Database.Database | undefined;
  try {
    return await removedOnInterrupt(removeWork, async () => {
      removeStaleWork(out);
      makePrivateFolder(work, out);
      made = true;
      db = openSource(source, staged);
      createPrivate(partial); // SQLite writes into it, and its journal takes the same mode
      await db.backup(partial, { progress: backupSteps(db.pragma('page_size', { simple: true }) as number, onProgress) });
      const copy = new Database(partial);
      copy.pragma('journal_mode = DELETE');
      copy.close();
      const schema = checkDatabaseFile(partial, `The copy for ${out}`);
      await signalsHeard();
      renameSync(partial, out);
      return { schema, bytes: statSync(out).size };
    });
  } catch (error) {
    throw inTermsOf(error, partial, out, 'write the backup');
  } finally {
    db?.close();
    removeWork();
  }
}

/** Makes `work` a new folder of this user's alone; one left by an earlier run of this process id is replaced. */
function makePrivateFolder(work: string, out: string): void {
  const there = lstatSync(work, { throwIfNoEntry: false });
  if (there) {
    if (!there.isDirectory() || there.isSymbolicLink() || there.uid !== (process.getuid?.() ?? there.uid)) {
      throw new BackupRefusedError(`${work} is in the way of the backup and is not this user's: remove it, or give --out a file in another folder than ${dirname(out)}.`);
    }
    rmSync(work, { recursive: true, force: true });
  }
  mkdirSync(work, { mode: 0o700 });
}

/**
 * Replaces the data folder's database with the backup `file`, after checking it. The caller
 * holds the folder's lock. The database replaced is kept beside it, named with the time; the keys
 * it revoked and the pulse tokens it rotated since the backup stay so (restoreCarryOver.ts).
 */
export async function restoreDatabase(
  file: string,
  dataDir: string,
  now: number,
  onProgress?: CopyProgress,
): Promise<{ keptAs: string | null; carried: CarriedOver | null }> {
  const target = databaseFile(dataDir);
  refuseUnreadable(file);
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupRefusedError(`${file} does not exist or is not a file.`);
  // SQLite keeps a file's -wal and -journal beside the file a link points to, not beside the link.
  const real = realpathSync(file);
  if (existsSync(`${real}-wal`)) {
    throw new BackupRefusedError(`${file} has a -wal file beside it: it is a live database, not a backup. Make one with \`cronbeat backup\`.`);
  }
  const partial = partialPath(target);
  let carried: CarriedOver | null;
  try {
    carried = await removedOnInterrupt(() => [partial, `${partial}-journal`].forEach(removeQuietly), async () => {
      createPrivate(partial);
      copyInto(file, partial, onProgress); // into the private file: its mode stays 0600
      // A change cut short (a tool killed while writing into the file) is undone from its journal, as SQLite would in place.
      if ((statSync(`${real}-journal`, { throwIfNoEntry: false })?.size ?? 0) > 0) {
        createPrivate(`${partial}-journal`);
        copyFileSync(`${real}-journal`, `${partial}-journal`);
      }
      checkDatabaseFile(partial, file);
      const undone = carryOverUndoneSecrets(target, partial);
      await signalsHeard();
      return undone;
    });
  } catch (error) {
    removeQuietly(partial);
    removeQuietly(`${partial}-journal`);
    const code = (error as { code?: string } | null)?.code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL') {
      const megabytes = Math.ceil(statSync(file).size / 1024 ** 2);
      throw new BackupRefusedError(
        `Could not restore ${file}: the disk holding the data folder ${dataDir} is full (the restore needs room for a copy of it, ${megabytes} MB, beside the database it replaces). Free some space and restore again; nothing was changed.`,
      );
    }
    throw inTermsOf(error, partial, file, 'restore');
  }
  // From this rename on the restore is decided: killed after it, the next start or restore finishes it.
  const stamp = stampOf(now);
  const ready = readyPath(target, stamp);
  renameSync(partial, ready);
  const keptAs = finishRestore(target, ready, keptAsOf(target, stamp), now);
  return { keptAs, carried };
}

/** A file this user may not read (a service's database, root's backup restored as the service's user) is said so, not called missing. */
function refuseUnreadable(file: string): void {
  try {
    accessSync(file, constants.R_OK);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EACCES') return;
    const user = userName(process.getuid?.() ?? -1);
    throw new BackupRefusedError(`${file} cannot be read by this user (${user}): permission denied. Let it read the file (sudo chown ${user} ${file}), or copy it where it can.`);
  }
}

const COPY_CHUNK = 8 * 1024 * 1024;

/** Copies `file` into the existing `target`: at once (copyFileSync) unless someone watches, else 8 MB at a time, told to `onProgress`. */
function copyInto(file: string, target: string, onProgress: CopyProgress | undefined): void {
  if (!onProgress) {
    copyFileSync(file, target);
    return;
  }
  const total = statSync(file).size;
  const buffer = Buffer.allocUnsafe(COPY_CHUNK);
  const from = openSync(file, 'r');
  const to = openSync(target, 'w');
  try {
    let done = 0;
    onProgress(0, total);
    for (let read = readSync(from, buffer, 0, COPY_CHUNK, null); read > 0; read = readSync(from, buffer, 0, COPY_CHUNK, null)) {
      // A write may take less than asked (a disk filling up says ENOSPC only at the next one): what was not taken is written again.
      for (let written = 0; written < read; ) written += writeSync(to, buffer, written, read - written);
      done += read;
      onProgress(done, total);
    }
  } finally {
    closeSync(from);
    closeSync(to);
  }
}
