import { monitorNameFor, maskSecrets } from './mask';
import { jobsOf, parseCrontab, type CronJob, type CrontabLine } from './parse';
import { monitoredToken } from './rewrite';
import type { RunPartsScript } from './runParts';
import { readSource, type CrontabSource, type CrontabText } from './sources';

/** Whether discover can act on a job: create a monitor, already done, impossible, or broken. */
export type JobStatus = 'monitorable' | 'monitored' | 'not monitorable' | 'invalid';

/** A cron job as `crontab scan` lists it; commands are shown with secrets masked. */
export interface JobRow {
  source: string;
  /** The line in its crontab; null for a script run-parts runs (runPartsRows), which no line names. */
  line: number | null;
  user: string | null;
  schedule: string;
  timezone: string | null;
  status: JobStatus;
  /** The monitor token when the line already runs through cronbeat. */
  token: string | null;
  reason: string | null;
  name: string;
  command: string;
  /** Whether cron feeds text after a % to the command's stdin. */
  has_stdin: boolean;
}

/** A source's parsed lines, or null when it does not exist. */
export function readCrontab(source: CrontabSource): (CrontabText & { lines: CrontabLine[] }) | null {
  const read = readSource(source);
  return read === null ? null : { ...read, lines: parseCrontab(read.text, source.format) };
}

/** The rows of `crontab scan` for one parsed source: every job line and every line cron would reject. */
export function rowsOf(source: CrontabSource, lines: CrontabLine[]): JobRow[] {
  const rows: JobRow[] = [];
  for (const line of lines) {
    if (line.kind === 'invalid') {
      rows.push({ source: source.label, line: line.line, user: source.owner, schedule: '', timezone: null, status: 'invalid', token: null, reason: line.reason, name: '', command: maskSecrets(line.raw.trim()), has_stdin: false });
    } else if (line.kind === 'job') {
      rows.push(rowOf(source, line));
    }
  }
  return rows;
}

function rowOf(source: CrontabSource, job: CronJob): JobRow {
  const token = monitoredToken(job.shellCommand);
  const status: JobStatus = token ? 'monitored' : job.unmonitorable ? 'not monitorable' : 'monitorable';
  return {
    source: source.label,
    line: job.line,
    user: job.user ?? source.owner,
    schedule: job.written,
    timezone: job.timezone,
    status,
    token,
    reason: job.unmonitorable,
    name: monitorNameFor(job.shellCommand),
    command: maskSecrets(job.shellCommand.trim()),
    has_stdin: job.stdin !== null,
  };
}

/** The jobs of a parsed crontab that discover should create monitors for. */
export function jobsToMonitor(lines: CrontabLine[]): CronJob[] {
  return jobsOf(lines).filter((job) => !job.unmonitorable && !monitoredToken(job.shellCommand));
}

/**
 * The rows of `crontab scan` for a folder run-parts runs: its scripts as `crontab watch` reads
 * them (runPartsScripts), root's. None is monitored as itself: it runs with the rest of its folder,
 * from no crontab line of its own (/etc/crontab's, cron.d's 0hourly or anacron run the folder).
 */
export function runPartsRows(folder: string, scripts: RunPartsScript[]): JobRow[] {
  return scripts.map(({ name, path, runs }) => ({
    source: folder,
    line: null,
    user: 'root',
    schedule: '',
    timezone: null,
    status: 'not monitorable',
    token: null,
    reason: runs ? 'run by run-parts with the rest of its folder, from no crontab line of its own' : 'not executable: run-parts skips it',
    name,
    command: path,
    has_stdin: false,
  }));
}
