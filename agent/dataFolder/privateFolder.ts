import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/*
 * The data folder holds API token hashes, monitor tokens and job output: only its owner may read
 * it. SQLite creates its -wal and -shm files with the mode of the database file, so creating that
 * file 0600 before SQLite opens it keeps every file it writes private too. Windows has no modes;
 * the per-user folder's ACL does the job there.
 *
 * Making things private only ever takes access away from group and others. A folder that belongs
 * to someone else, or that its owner made read-only on purpose, is refused with a message saying
 * whose it is and what to do: never "fixed" by changing a mode the user chose.
 */

const isPosix = process.platform !== 'win32';

/** The files the agent must be able to write in its data folder. */
const WRITTEN_FILES = ['cronbeat.db', 'cronbeat.db-wal', 'cronbeat.db-shm', 'cronbeat.lock', 'cronbeat.pid'];

/** A data folder this user cannot or should not use; the message says why and what to do. */
export class DataFolderRefusedError extends Error {}

/** The name of the user with `uid` (from /etc/passwd), or "user <uid>". */
export function userName(uid: number): string {
  try {
    if (uid === process.getuid?.()) return userInfo().username;
    const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((entry) => entry.split(':')[2] === String(uid));
    if (line) return line.split(':')[0];
  } catch {
    // no passwd file, or no name for this uid
  }
  return `user ${uid}`;
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Refuses `path` when it belongs to another user (what it is: "data folder", "database"). */
function refuseForeign(path: string, stats: Stats, what: string): void {
  const me = process.getuid?.();
  if (me === undefined || stats.uid === me) return;
  const owner = userName(stats.uid);
  const self = userName(me);
  throw new DataFolderRefusedError(
    `The ${what} ${path} belongs to ${owner}, not to you (${self}). Run Cronbeat as ${owner}, or use a folder of your own with --data-dir (or CRONBEAT_DATA_DIR); to hand this one to you: sudo chown -R ${self} ${path}`,
  );
}

/** Refuses `path` when its owner took away their own write (or, for a folder, search) permission. */
function refuseLocked(path: string, stats: Stats, what: string, needed: number): void {
  if ((stats.mode & needed) === needed) return;
  throw new DataFolderRefusedError(
    `The ${what} ${path} is read-only (mode ${octal(stats.mode)}), and Cronbeat leaves the mode you set. It needs to write there: make it writable (chmod u+w${needed & 0o100 ? 'x' : ''} ${path}), or use another folder with --data-dir (or CRONBEAT_DATA_DIR).`,
  );
}

/**
 * `path` and the folders it needs, each with `mode`: mkdirSync's `recursive: true` done one folder
 * at a time. Node's own never returns where a folder's parent exists but the folder cannot be made
 * in it for want of something else (ENOENT from procfs or sysfs: XDG_DATA_HOME=/proc): it tries the
 * parent, finds it there and tries the folder again, at full CPU, for good, before `cronbeat run`
 * has passed on a byte of its job's output or reported it. Throws as mkdirSync does.
 */
export function makeFolders(path: string, mode: number): void {
  const target = resolve(path);
  const missing: string[] = [];
  for (let folder = target; ; folder = dirname(folder)) {
    try {
      if (statSync(folder).isDirectory()) break;
      throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${folder}'`), { code: 'EEXIST', path: folder, syscall: 'mkdir' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    missing.push(folder);
    if (folder === dirname(folder)) break;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      // Made meanwhile by another run: fine, if it is a folder (statSync throws otherwise, a dangling link's ENOENT).
      const { code } = error as NodeJS.ErrnoException;
      if (code === 'EEXIST') {
        if (statSync(folder).isDirectory()) continue;
        throw error;
      }
      // Named by the folder asked for, as Node's own recursive mkdir names it: the data folder, not "/nonexistent".
      throw Object.assign(error as NodeJS.ErrnoException, { path: target });
    }
  }
}

/**
 * Creates the data folder and its parents, 0700. One it cannot make is refused in words naming it,
 * keeping the error's code and path for the job side, which falls back to a temporary folder.
 */
function makeFolder(dataDir: string): void {
  try {
    makeFolders(dataDir, 0o700);
  } catch (error) {
    const { code, path } = error as NodeJS.ErrnoException;
    const why =
      code === 'EEXIST' || code === 'ENOTDIR'
        ? `${path === dataDir ? 'it' : path} is a file, not a folder. Use another`
        : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
          ? `${code === 'EROFS' ? 'the file system is read-only' : 'permission denied'}. Use a folder this user can write`
          : code === 'ENOSPC' || code === 'EDQUOT'
            ? 'the disk is full. Free some space, or use a folder on another disk'
            : null;
    if (!why) throw error;
    throw Object.assign(new DataFolderRefusedError(`The data folder ${dataDir} cannot be made: ${why} with --data-dir (or CRONBEAT_DATA_DIR).`), { code, path });
  }
}

/** Takes group and other access away from `path`, keeping the owner's own bits as they are. */
function keepToOwner(path: string, stats: Stats): void {
  if (stats.mode & 0o077) chmodSync(path, stats.mode & 0o700);
}

/**
 * Creates the folder if missing; refuses it (DataFolderRefusedError) when it or a file the agent
 * writes belongs to another user or was made read-only; then makes it and the files directly in
 * it private to their owner. A file its owner made read-only is left exactly as it is.
 */
export function makeDataFolderPrivate(dataDir: string): void {
  makeFolder(dataDir);
  if (!isPosix) return;
  const folder = statSync(dataDir);
  refuseForeign(dataDir, folder, 'data folder');
  refuseLocked(dataDir, folder, 'data folder', 0o700);
  keepToOwner(dataDir, folder);
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(dataDir, entry.name);
    let stats: Stats;
    try {
      stats = statSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed meanwhile
      throw error;
    }
    const written = WRITTEN_FILES.includes(entry.name);
    if (written) refuseForeign(file, stats, 'file');
    if (written) refuseLocked(file, stats, 'file', 0o600);
    if (stats.uid === process.getuid?.() && (stats.mode & 0o200) !== 0) keepToOwner(file, stats);
  }
}

/**
 * The folder of commands that only keep a spool there (ping, run): created if missing and made
 * private when it is the user's own and writable; anything else is left as it is, never refused.
 */
export function tightenIfOwn(dataDir: string): void {
  makeFolder(dataDir);
  if (!isPosix) return;
  const stats = statSync(dataDir);
  if (stats.uid === process.getuid?.() && (stats.mode & 0o700) === 0o700) keepToOwner(dataDir, stats);
}

/** Creates `file` empty and 0600 when it does not exist; an existing file is left as it is. */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
}

/**
 * $TMPDIR/cronbeat-UID, created 0700: the job side's spool when the data folder cannot be used.
 * Refused unless it is a real folder of this user that nobody else can open (another user could
 * have made it first in a shared /tmp).
 */
export function privateTempFolder(): string {
  const dir = tempFolderPath();
  makeFolders(dir, 0o700);
  return privateFolderOfThisUser(dir);
}

/** Where privateTempFolder is, made or not. */
export function tempFolderPath(): string {
  const uid = process.getuid?.();
  return join(tmpdir(), uid === undefined ? 'cronbeat' : `cronbeat-${uid}`);
}

/** `dir` when it is a real folder of this user that nobody else can open; throws otherwise. */
export function privateFolderOfThisUser(dir: string): string {
  const uid = process.getuid?.();
  if (uid === undefined) return dir; // Windows: per-user folders are the user's own
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) {
    throw new Error(`${dir} is not a private folder of this user`);
  }
  return dir;
}
