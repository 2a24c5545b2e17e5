import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient, MonitorSummary } from '../../client/connection/api';
import { splitRawAtPercent, type CronJob } from './parse';
import type { MonitoredLine } from './rewrite';
import type { CrontabSource } from './sources';

/*
 * Which monitor discover made for which crontab line, kept in the data folder, so a line that
 * is discovered again (after --undo, or after the original crontab was copied back) gets the
 * monitor it had, not a second one. A line is recognised by what makes it the same job to
 * cron: the crontab it is in (its path, or `crontab -l` and its owner), its user column, its
 * five schedule fields, the CRON_TZ/TZ in effect, and its command exactly as written (with any
 * % stdin part). Only a digest of these is kept, since commands may hold secrets.
 */

const FILE = 'crontab-discovered.json';

interface Entry {
  /** lineKey(): the digest of the line. */
  line: string;
  /** The monitor's token, as the line carried it. */
  token: string;
}

/** The key of a job's line; `command` is its command as written before discover (the line's own, or the one undo puts back). */
export function lineKey(source: CrontabSource, job: CronJob, command = job.command): string {
  const { head, tail } = splitRawAtPercent(command);
  const where = source.path ?? `${source.label} ${source.owner ?? ''}`;
  return createHash('sha256')
    .update(JSON.stringify([where, job.user, job.schedule, job.timezone, head.trim(), tail]))
    .digest('hex');
}

/** The lines discover made monitors for, and their tokens. */
export class DiscoveredLines {
  private constructor(
    private readonly file: string,
    private entries: Entry[],
  ) {}

  /** The record in `dataDir` (`name`: `timers discover` keeps its own); empty when there is none yet or it cannot be read as one. */
  static read(dataDir: string, name = FILE): DiscoveredLines {
    const file = join(dataDir, name);
    let entries: Entry[] = [];
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as { lines?: unknown };
      if (Array.isArray(parsed.lines)) entries = parsed.lines.filter((e): e is Entry => typeof e?.line === 'string' && typeof e?.token === 'string');
    } catch {
      // No record (or a damaged one): every line is new to it, as before the record existed.
    }
    return new DiscoveredLines(file, entries);
  }

  /** The tokens recorded for a line, oldest first (identical lines have one each). */
  tokensOf(key: string): string[] {
    return this.entries.filter((entry) => entry.line === key).map((entry) => entry.token);
  }

  remember(key: string, token: string): void {
    if (!this.entries.some((entry) => entry.line === key && entry.token === token)) this.entries.push({ line: key, token });
  }

  /** Forgets tokens whose monitors are gone. */
  forget(tokens: Set<string>): void {
    this.entries = this.entries.filter((entry) => !tokens.has(entry.token));
  }

  save(): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify({ lines: this.entries }, null, 1)}\n`, { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}

/** The key of a line discover rewrote, as the line will read once undone (its command as written before). */
export function wiredLineKey(source: CrontabSource, job: CronJob, line: MonitoredLine): string {
  return lineKey(source, job, `${line.original}${splitRawAtPercent(job.command).tail}`);
}

/**
 * For each job, the monitor an earlier discover made for its line, when it still exists and no
 * other line of the crontab runs with it (`inUse`); each monitor goes to one line. Monitors that
 * are gone are forgotten. Asks the API only when the record knows one of the lines.
 */
export async function recordedMonitors(
  record: DiscoveredLines,
  jobs: { job: CronJob; key: string }[],
  inUse: Set<string>,
  api: ApiClient,
): Promise<Map<CronJob, MonitorSummary>> {
  const found = new Map<CronJob, MonitorSummary>();
  const wanted = jobs.map(({ job, key }) => ({ job, tokens: record.tokensOf(key).filter((token) => !inUse.has(token)) }));
  if (wanted.every(({ tokens }) => tokens.length === 0)) return found;
  const byToken = new Map((await api.listMonitors()).map((monitor) => [monitor.token, monitor]));
  record.forget(new Set(wanted.flatMap(({ tokens }) => tokens).filter((token) => !byToken.has(token))));
  const claimed = new Set<string>();
  for (const { job, tokens } of wanted) {
    const token = tokens.find((t) => byToken.has(t) && !claimed.has(t));
    if (token === undefined) continue;
    claimed.add(token);
    found.set(job, byToken.get(token)!);
  }
  return found;
}
