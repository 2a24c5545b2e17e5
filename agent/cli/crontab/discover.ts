import { renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ApiError, type ApiClient, type MonitorSummary } from '../../client/api';
import { canonicalTimeZone } from '../../domain/schedule';
import { printTable } from './table';
import { jobsToMonitor, readCrontab } from './jobs';
import { monitorNameFor } from './mask';
import { jobsOf, type CronJob } from './parse';
import { rewriteJobLine, type Invocation } from './rewrite';
import { installUserCrontab, type CrontabSource } from './sources';
import { counted, progressLine } from '../progress';

export interface DiscoverOptions {
  source: CrontabSource;
  dryRun: boolean;
  duration: number;
  /** Null only for a dry run. */
  api: ApiClient | null;
  invocation: Invocation;
  /** The zone of jobs without CRON_TZ: this machine's. */
  machineZone: string;
  /** Where a backup of `crontab -l` goes (a file's backup goes next to it). */
  dataDir: string;
  now: Date;
}

interface Plan {
  job: CronJob;
  name: string;
  timezone: string;
}

/**
 * Creates one monitor per unmonitored job and rewrites its line through `cronbeat run`, after
 * a backup. Lines already running through cronbeat are left alone, so a second run changes
 * nothing. When the API fails half-way, the lines of the monitors already made are still
 * rewritten, so running it again picks up where it stopped. Returns the exit status.
 */
export async function discover(options: DiscoverOptions): Promise<number> {
  const { source } = options;
  const crontab = readCrontab(source);
  if (!crontab) {
    console.log(`No crontab at ${source.label}: nothing to discover.`);
    return 0;
  }
  const all = jobsOf(crontab.lines);
  const plans: Plan[] = [];
  for (const job of jobsToMonitor(crontab.lines)) {
    const zone = canonicalTimeZone(job.timezone ?? options.machineZone);
    if (!zone) console.error(`cronbeat: line ${job.line} skipped: time zone "${job.timezone}" is unknown`);
    else plans.push({ job, name: monitorNameFor(job.shellCommand), timezone: zone });
  }
  const monitored = all.filter((job) => !job.unmonitorable).length - jobsToMonitor(crontab.lines).length;
  const unmonitorable = all.filter((job) => job.unmonitorable);
  for (const job of unmonitorable) console.log(`Line ${job.line} left alone: ${job.unmonitorable}.`);
  for (const line of crontab.lines) if (line.kind === 'invalid') console.log(`Line ${line.line} left alone: ${line.reason.replace(/\.$/, '')}.`);
  if (monitored > 0) console.log(`${monitored} job${monitored === 1 ? '' : 's'} already run${monitored === 1 ? 's' : ''} through cronbeat; left as ${monitored === 1 ? 'it is' : 'they are'}.`);
  if (plans.length === 0) {
    console.log('Nothing to do: no job without a monitor.');
    return 0;
  }

  if (options.dryRun) {
    console.log(`Would create ${plans.length} monitor${plans.length === 1 ? '' : 's'} (duration ${options.duration} min) and rewrite ${source.label}:`);
    for (const plan of plans) {
      console.log(`  line ${plan.job.line}: "${plan.name}"  ${plan.job.schedule}  ${plan.timezone}`);
      console.log(`    ${rewriteJobLine(plan.job, '<monitor-token>', options.invocation)}`);
    }
    return 0;
  }

  const created: { plan: Plan; monitor: MonitorSummary }[] = [];
  let failure: string | null = null;
  const progress = progressLine('Creating monitors', counted('crontab lines'));
  for (const plan of plans) {
    progress.update(created.length, plans.length);
    try {
      const monitor = await options.api!.createMonitor({ name: plan.name, schedule: plan.job.schedule, timezone: plan.timezone, duration: options.duration });
      created.push({ plan, monitor });
    } catch (error) {
      failure = error instanceof ApiError ? error.message : String(error);
      break;
    }
  }
  progress.end();
  if (created.length > 0) {
    const lines = crontab.text.split('\n');
    for (const { plan, monitor } of created) lines[plan.job.line - 1] = rewriteJobLine(plan.job, monitor.token, options.invocation);
    const backup = writeWithBackup(source, crontab.text, lines.join('\n'), options);
    printTable(
      created.map(({ plan, monitor }) => ({ line: plan.job.line, monitor: monitor.id, name: monitor.name, schedule: monitor.schedule, timezone: monitor.timezone, token: monitor.token })),
      ['line', 'monitor', 'schedule', 'timezone', 'token', 'name'],
    );
    console.log(`Created ${created.length} monitor${created.length === 1 ? '' : 's'} and rewrote ${source.label} (the original is kept in ${backup}).`);
  }
  if (failure) {
    console.error(`cronbeat: stopped after ${created.length} of ${plans.length} monitors: ${failure}. Run discover again to continue.`);
    return 1;
  }
  return 0;
}

/** Saves the original next to the file (hidden, so cron ignores it), then replaces the file atomically. */
function writeWithBackup(source: CrontabSource, original: string, updated: string, options: DiscoverOptions): string {
  const stamp = options.now.toISOString().replace(/[-:]/g, '');
  if (!source.path) {
    const backup = join(options.dataDir, `crontab-backup-${source.owner}-${stamp}`);
    writeFileSync(backup, original, { mode: 0o600, flag: 'wx' });
    installUserCrontab(updated);
    return backup;
  }
  const folder = dirname(source.path);
  const name = basename(source.path);
  const mode = statSync(source.path).mode & 0o7777;
  const backup = join(folder, `.${name}.cronbeat-backup-${stamp}`);
  writeFileSync(backup, original, { mode, flag: 'wx' });
  const temporary = join(folder, `.${name}.cronbeat-${process.pid}.tmp`);
  writeFileSync(temporary, updated, { mode });
  renameSync(temporary, source.path);
  return backup;
}
