import { createHash } from 'node:crypto';
import { maskSecrets } from './mask';
import type { CronJob, CrontabLine } from './parse';
import { ownCommand } from './rewrite';

/** One cron job as the watcher remembers it: who runs it, what it says (masked), and a hash of the real line. */
export interface SnapshotJob {
  source: string;
  user: string;
  /** Schedule and command with secrets masked: what an alert shows. */
  text: string;
  /** SHA-256 of the unmasked schedule and command, so a changed secret is still a change. */
  hash: string;
  /** A line Cronbeat reads as no job (its text is the line as written), watched all the same. */
  refused?: true;
  /** A setting's name (SHELL, PATH, MAILTO…): its text is `NAME=value`. */
  setting?: string;
  /** A script's name in a folder run-parts runs (/etc/cron.daily…): its text names its path. */
  script?: string;
}

export type ChangeKind = 'added' | 'removed' | 'altered';

export interface CrontabChange {
  kind: ChangeKind;
  user: string;
  /** The job's line now (for removed: as it was). */
  text: string;
  /** For altered: the line before. */
  previous: string | null;
}

/**
 * The user of a line no job could be read from: the crontab's owner, or in a system crontab the
 * word where its user column would be (after a macro, or after five fields).
 */
function userOfRefused(raw: string, owner: string | null): string {
  if (owner !== null) return owner;
  const words = raw.trim().split(/[ \t]+/);
  return words[/^-?@/.test(words[0] ?? '') ? 1 : 5] ?? 'unknown';
}

/** The snapshot entry of a job line. */
function jobEntry(source: string, owner: string | null, job: CronJob): SnapshotJob {
  const command = job.command.trim();
  // A line run through cronbeat is told by the job's own command, never by the wrapper (and its token).
  const own = ownCommand(job);
  // Windows line ends: cron hands the carriage return to the shell with the command, which then
  // names no program there is, so a line that gained one is a job changed (stopped), not the same.
  const cr = job.command.endsWith('\r') ? ' (and a carriage return, which cron passes to the shell with the command)' : '';
  return {
    source,
    user: job.user ?? owner ?? 'unknown',
    text: own === null ? `${job.written} ${maskSecrets(command)}${cr}` : `${job.written} ${maskSecrets(own)} (run through cronbeat)${cr}`,
    hash: createHash('sha256').update(`${job.written}\0${command}${cr ? '\0\r' : ''}`).digest('hex'),
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The snapshot entries of one parsed crontab, in line order; `owner` is the user of a user crontab.
 * Besides its jobs: its settings, which change what every job below them runs (SHELL, PATH,
 * BASH_ENV), when (CRON_TZ) and who reads its output (MAILTO); and a line that is no comment,
 * setting or job to Cronbeat, since Cronbeat's reading is stricter than some cron's (Debian's runs
 * "5/20 * * * *" at :05), and a planted line must not hide in the difference.
 */
export function snapshotJobs(source: string, owner: string | null, lines: CrontabLine[]): SnapshotJob[] {
  return lines.flatMap((line): SnapshotJob[] => {
    if (line.kind === 'job') return [jobEntry(source, owner, line)];
    if (line.kind === 'env') {
      // A system crontab's settings are root's: only root may write one.
      const text = maskSecrets(`${line.name}=${line.value}`);
      return [{ source, user: owner ?? 'root', text, hash: digest(`setting\0${line.name}\0${line.value}`), setting: line.name }];
    }
    if (line.kind === 'invalid') {
      return [{ source, user: userOfRefused(line.raw, owner), text: maskSecrets(line.raw.trim()), hash: digest(`refused\0${line.raw}`), refused: true }];
    }
    return [];
  });
}

/**
 * What changed between two snapshots, per crontab and user, in line order. Jobs that are in
 * both (by hash) are unchanged. A removed job and an added one pair up as one altered job only
 * when they are plausibly the same job edited (see sameJobEdited), so an edited line raises one
 * change while a line replaced by an unrelated one raises a removal and an addition.
 */
export function diffSnapshots(before: SnapshotJob[], after: SnapshotJob[]): CrontabChange[] {
  const changes: CrontabChange[] = [];
  const groups = new Set([...before, ...after].map(groupOf));
  for (const group of groups) {
    const removed = withoutCommon(before.filter((job) => groupOf(job) === group), after.filter((job) => groupOf(job) === group));
    const added = withoutCommon(after.filter((job) => groupOf(job) === group), before.filter((job) => groupOf(job) === group));
    const pairedWith = new Map<SnapshotJob, SnapshotJob>();
    const unpaired = new Set(removed);
    for (const job of added) {
      const previous = [...unpaired].find((old) => sameEntryEdited(old, job));
      if (!previous) continue;
      pairedWith.set(job, previous);
      unpaired.delete(previous);
    }
    for (const job of added) {
      const previous = pairedWith.get(job);
      changes.push(previous ? { kind: 'altered', user: job.user, text: job.text, previous: previous.text } : { kind: 'added', user: job.user, text: job.text, previous: null });
    }
    for (const job of unpaired) changes.push({ kind: 'removed', user: job.user, text: job.text, previous: null });
  }
  return changes;
}

/** Whether two entries are one edited: a setting only as the same setting, a script as the same file, a job as sameJobEdited says. */
function sameEntryEdited(before: SnapshotJob, after: SnapshotJob): boolean {
  if (before.setting !== undefined || after.setting !== undefined) return before.setting === after.setting;
  if (before.script !== undefined || after.script !== undefined) return before.script === after.script;
  return sameJobEdited(before.text, after.text);
}

/**
 * Whether two lines of the same crontab and user are plausibly one job edited: the same
 * command on another schedule, or the same schedule running a similar command (the same
 * program, or mostly the same words). A changed secret (same masked text) is an edit too.
 */
export function sameJobEdited(before: string, after: string): boolean {
  const old = splitLine(before);
  const now = splitLine(after);
  if (old.command === now.command) return true;
  if (old.schedule !== now.schedule) return false;
  return programOf(old.command) === programOf(now.command) || wordOverlap(old.command, now.command) >= 0.5;
}

/** A job's text is its schedule as written (a macro, or five fields) and its command. */
function splitLine(text: string): { schedule: string; command: string } {
  const words = text.trim().split(/\s+/);
  const fields = /^-?@/.test(words[0] ?? '') ? 1 : 5;
  return { schedule: words.slice(0, fields).join(' '), command: words.slice(fields).join(' ') };
}

/** The program a command runs, past variable assignments and `cd … &&`: "/usr/sbin/logrotate" → "logrotate". */
function programOf(command: string): string {
  const words = command.split(/\s+/);
  let index = 0;
  for (;;) {
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] ?? '')) index++;
    else if (words[index] === 'cd' && words[index + 2] === '&&') index += 3;
    else break;
  }
  return (words[index] ?? '').split('/').pop() ?? '';
}

/** Shared words over all distinct words of the two commands (Jaccard), from 0 to 1. */
function wordOverlap(a: string, b: string): number {
  const left = new Set(a.split(/\s+/));
  const right = new Set(b.split(/\s+/));
  const shared = [...left].filter((word) => right.has(word)).length;
  return shared / new Set([...left, ...right]).size;
}

function groupOf(job: SnapshotJob): string {
  return `${job.source}\0${job.user}`;
}

/** The jobs of `list` not matched one-for-one by a job with the same hash in `other`. */
function withoutCommon(list: SnapshotJob[], other: SnapshotJob[]): SnapshotJob[] {
  const left = new Map<string, number>();
  for (const job of other) left.set(job.hash, (left.get(job.hash) ?? 0) + 1);
  return list.filter((job) => {
    const count = left.get(job.hash) ?? 0;
    if (count === 0) return true;
    left.set(job.hash, count - 1);
    return false;
  });
}
