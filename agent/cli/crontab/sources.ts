import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { cronDReads } from './cronNames';
import type { CrontabFormat } from './parse';

/** One crontab to read: a file, or the current user's crontab through `crontab -l`. */
export interface CrontabSource {
  /** The path, or "crontab -l" for the user's crontab. */
  label: string;
  format: CrontabFormat;
  /** Whose jobs these are in a user crontab; null in a system one (its lines say). */
  owner: string | null;
  /** Absolute path for files; null for `crontab -l`. */
  path: string | null;
}

export class CrontabReadError extends Error {}

export const USER_CRONTAB_LABEL = 'crontab -l';

/** /etc/crontab and files under /etc/cron.d have a user column; other files are user crontabs. */
export function formatForPath(path: string): CrontabFormat {
  const absolute = resolve(path);
  return absolute === '/etc/crontab' || dirname(absolute) === '/etc/cron.d' ? 'system' : 'user';
}

/**
 * Where cron keeps users' crontabs, each file named for its user: Debian's, Red Hat's, macOS's
 * (also reached as /usr/lib/cron/tabs, a link to it) and the BSDs'.
 */
export const USER_SPOOLS = ['/var/spool/cron/crontabs', '/var/spool/cron', '/var/at/tabs', '/var/cron/tabs'];
/** macOS's spool by the name its crontab(5) gives it: a link to /var/at/tabs, so never listed twice. */
const SPOOL_LINKS = ['/usr/lib/cron/tabs'];

export function fileSource(path: string, format = formatForPath(path)): CrontabSource {
  const absolute = resolve(path);
  // A spool file runs as the user it is named for, not as whoever (root) gave it.
  const owner = format === 'user' ? ([...USER_SPOOLS, ...SPOOL_LINKS].includes(dirname(absolute)) ? basename(absolute) : currentUser()) : null;
  return { label: absolute, format, owner, path: absolute };
}

export function userCrontabSource(): CrontabSource {
  return { label: USER_CRONTAB_LABEL, format: 'user', owner: currentUser(), path: null };
}

/** A crontab's text, and how its bytes were read, so that writing it back gives the same bytes. */
export interface CrontabText {
  text: string;
  /** latin1 (a character per byte) for bytes that are not UTF-8: cron reads bytes, and other lines keep theirs. */
  encoding: 'utf8' | 'latin1';
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The largest crontab file read: far past any real one, short of filling memory with a wrong --file. */
const MAX_CRONTAB_BYTES = 8 * 1024 * 1024;

function decoded(bytes: Buffer): CrontabText {
  try {
    return { text: UTF8.decode(bytes), encoding: 'utf8' };
  } catch {
    return { text: bytes.toString('latin1'), encoding: 'latin1' };
  }
}

/**
 * The crontab's text, or null when it does not exist (no file, or "no crontab for user").
 * Throws CrontabReadError with a one-line reason when it exists but cannot be read.
 */
export function readSource(source: CrontabSource): CrontabText | null {
  if (source.path) {
    try {
      // A device or a FIFO (`--file /dev/zero`) would be read for ever; cron reads none either.
      const found = statSync(source.path);
      if (!found.isFile()) throw new CrontabReadError(`cannot read ${source.path}: ${found.isDirectory() ? 'a folder' : 'not a regular file'}, where a crontab is a file`);
      if (found.size > MAX_CRONTAB_BYTES) throw new CrontabReadError(`cannot read ${source.path}: ${found.size} bytes, more than any crontab (${MAX_CRONTAB_BYTES / 1024 / 1024} MB at most)`);
      return decoded(readFileSync(source.path));
    } catch (error) {
      if (error instanceof CrontabReadError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      throw new CrontabReadError(`cannot read ${source.path}: ${code === 'EACCES' ? 'permission denied (run as root to see every crontab)' : code}`);
    }
  }
  const result = spawnSync('crontab', ['-l']);
  if (result.error) {
    if ((result.error as NodeJS.ErrnoException).code === 'ENOENT') return null; // no cron on this machine
    throw new CrontabReadError(`cannot run crontab -l: ${result.error.message}`);
  }
  if (result.status === 0) return decoded(result.stdout);
  const stderr = result.stderr.toString('utf8');
  if (/no crontab/i.test(stderr)) return null;
  throw new CrontabReadError(`crontab -l failed: ${stderr.trim().split('\n')[0]}`);
}

/** Installs `content` as the current user's crontab with `crontab -`. */
export function installUserCrontab(content: Buffer): void {
  const result = spawnSync('crontab', ['-'], { input: content, encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    throw new CrontabReadError(`crontab - failed: ${(result.stderr || result.error?.message || '').trim().split('\n')[0]}`);
  }
}

/**
 * Whether this machine's cron is Debian's (its `cron` package is installed), which reads fewer
 * names in /etc/cron.d than cronie. Anything else gets cronie's rules, which read every name
 * Debian's does: a file named `job.bak` that the cron there runs must not go unwatched.
 */
function debianCron(): boolean {
  return existsSync('/var/lib/dpkg/info/cron.list');
}

/** /etc/crontab and every file in /etc/cron.d that cron reads (cronDReads, as this machine's cron does). */
export function systemSources(): CrontabSource[] {
  const debian = debianCron();
  return [fileSource('/etc/crontab', 'system'), ...listFiles('/etc/cron.d').filter((path) => cronDReads(basename(path), debian)).map((path) => fileSource(path, 'system'))];
}

/** Every user's crontab in cron's spool (readable by root only): Debian's and Red Hat's folders. */
export function userSpoolSources(): CrontabSource[] {
  const sources: CrontabSource[] = [];
  for (const folder of USER_SPOOLS) {
    for (const path of listFiles(folder)) {
      if (basename(path).startsWith('.')) continue;
      sources.push({ label: path, format: 'user', owner: basename(path), path });
    }
  }
  return sources;
}

/**
 * Every crontab of this machine that this process may read: as root, every user's crontab in
 * cron's spool; otherwise the current user's (`crontab -l`); plus the system crontabs.
 */
export function machineSources(): CrontabSource[] {
  const users = process.getuid?.() === 0 ? userSpoolSources() : [];
  return [...(users.length > 0 ? users : [userCrontabSource()]), ...systemSources()];
}

function listFiles(folder: string): string[] {
  try {
    return readdirSync(folder)
      .sort()
      .map((name) => join(folder, name))
      .filter((path) => statSync(path).isFile());
  } catch {
    return [];
  }
}

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'unknown';
  }
}
