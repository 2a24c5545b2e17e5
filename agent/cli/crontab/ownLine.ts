import { readCrontab } from './jobs';
import { jobsOf } from './parse';
import { monitoredToken } from './rewrite';
import { machineSources, type CrontabSource } from './sources';

/** The schedule a crontab line gives `cronbeat run --name=SLUG` with no --schedule: its own fields, and its CRON_TZ. */
export interface OwnLine {
  schedule: string;
  /** CRON_TZ in effect for the line; null: the machine's zone. */
  timezone: string | null;
}

/**
 * The crontab line that runs `cronbeat run --name=SLUG` (as `crontab discover --by-name` writes
 * it), read from this machine's crontabs, so editing the line's schedule is all it takes to
 * change the monitor's. A string says why there is none to go by: no such line, or several
 * lines with different schedules. Crontabs this user cannot read are passed over.
 */
export function ownCrontabLine(slug: string, sources: CrontabSource[] = machineSources()): OwnLine | string {
  const found = new Map<string, OwnLine>();
  for (const source of sources) {
    let crontab;
    try {
      crontab = readCrontab(source);
    } catch {
      continue;
    }
    for (const job of crontab ? jobsOf(crontab.lines) : []) {
      if (job.schedule && monitoredToken(job.shellCommand) === `--name=${slug}`) {
        found.set(`${job.schedule} ${job.timezone ?? ''}`, { schedule: job.schedule, timezone: job.timezone });
      }
    }
  }
  if (found.size === 0) return `no --schedule, and no crontab line of this machine runs --name=${slug}`;
  if (found.size > 1) return `no --schedule, and the crontab lines that run --name=${slug} have different schedules`;
  return [...found.values()][0];
}
