import { closeSync, fchmodSync, fchownSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CrontabReadError, installUserCrontab, readSource, type CrontabSource, type CrontabText } from './sources';

/*
 * Writing a crontab back after discover (or --undo) changed some of its lines: only those lines
 * change. The bytes of the rest, the file's owner and mode, a symbolic link to it, and an edit
 * someone made while discover talked to the API all stay as they were.
 */

/**
 * Saves the original (next to the file, hidden so cron ignores it; for `crontab -l`, in the data
 * folder), then replaces the crontab with `updated`, written in the encoding it was read in.
 * Throws CrontabReadError, writing nothing over it, when the crontab changed since `read`.
 */
export function writeWithBackup(source: CrontabSource, read: CrontabText, updated: string, options: { dataDir: string; now: Date }): string {
  const stamp = options.now.toISOString().replace(/[-:]/g, '');
  const bytes = (text: string) => Buffer.from(text, read.encoding);
  if (!source.path) {
    const backup = join(options.dataDir, `crontab-backup-${source.owner}-${stamp}`);
    writeFileSync(backup, bytes(read.text), { mode: 0o600, flag: 'wx' });
    unchangedSince(source, read);
    installUserCrontab(bytes(updated));
    return backup;
  }
  // Through a symbolic link (a package's file linked into /etc/cron.d), what it points at is written and the link stays.
  const path = realpathSync(source.path);
  const stat = statSync(path);
  const backup = join(dirname(source.path), `.${basename(source.path)}.cronbeat-backup-${stamp}`);
  writeLike(stat, backup, bytes(read.text));
  const temporary = join(dirname(path), `.${basename(path)}.cronbeat-${process.pid}.tmp`);
  writeLike(stat, temporary, bytes(updated));
  try {
    unchangedSince(source, read);
    renameSync(temporary, path);
  } catch (error) {
    unlinkSync(temporary);
    throw error;
  }
  return backup;
}

/** The crontab file (or what its link points at) when every user of the machine may read it; null when not. */
export function readableByAll(path: string): string | null {
  const real = realpathSync(path);
  return statSync(real).mode & 0o004 ? real : null;
}

/** A file's mode as chmod takes it: 0644. */
export function modeOf(path: string): string {
  return (statSync(path).mode & 0o7777).toString(8).padStart(4, '0');
}

/**
 * Writes a new file with the owner and mode of `like`: cron skips a user's crontab that root
 * owns, and /etc/cron.d files must stay as writable as they were, umask or not.
 */
function writeLike(like: Stats, path: string, content: Buffer): void {
  // Through the descriptor: in a folder its user can write, a name could be swapped for a link between two calls.
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    throw new CrontabReadError(`cannot write in ${dirname(path)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): nothing was changed. Run as the crontab's owner or as root.`);
  }
  let written = 0;
  try {
    // A write may take less than asked (a disk filling up says ENOSPC only at the next one): renamed
    // into place, a file cut short would stop every job past the cut.
    while (written < content.length) written += writeSync(fd, content, written, content.length - written);
    if (like.uid !== process.getuid?.() || like.gid !== process.getgid?.()) fchownSync(fd, like.uid, like.gid);
    fchmodSync(fd, like.mode & 0o7777);
  } catch (error) {
    unlinkSync(path);
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    if (written < content.length) throw new CrontabReadError(`cannot write ${path} (${code}${code === 'ENOSPC' ? ': the disk is full' : ''}): nothing was changed.`);
    throw new CrontabReadError(`cannot give ${path} the owner and mode of the crontab (${code}): nothing was changed. Run as the crontab's owner or as root.`);
  } finally {
    closeSync(fd);
  }
}

/** Throws when the crontab is no longer what discover read: someone edited it meanwhile, and writing would lose that edit. */
function unchangedSince(source: CrontabSource, read: CrontabText): void {
  if (readSource(source)?.text === read.text) return;
  throw new CrontabReadError(
    `${source.label} changed while discover ran (edited meanwhile?): nothing was written over it, so that edit is kept. Run the same command again (discover takes the monitors it has just made).`,
  );
}
