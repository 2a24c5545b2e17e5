import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { type ApiClient, type MonitorSummary } from '../../client/connection/api';
import { defaultGraceMinutes } from '../../domain/monitors/dueTime';
import { cronZone } from './cronZone';
import { printable, printTable } from './table';
import { jobsToMonitor, readCrontab } from './jobs';
import { monitorNameFor } from './mask';
import { jobsOf, type CronJob } from './parse';
import { failOpenLine, monitoredLine, rewriteJobLine, shellProblem, tooLongToWrap, undoneLine } from './rewrite';
import { installShim, ShimError, type ShimPlan } from './shim';
import { type CrontabSource } from './sources';
import { modeOf, readableByAll, writeWithBackup } from './write';
import { shellQuote } from '../../domain/text/shellQuote';
import { counted, progressLine } from '../progress';
import { DiscoveredLines, lineKey, recordedMonitors, wiredLineKey } from './discovered';
import { describeError } from '../../domain/text/errorText';
import { monitorToWriteProblem } from '../../domain/text/tokenWord';

export interface DiscoverOptions {
  source: CrontabSource;
  dryRun: boolean;
  /** The grace of every new monitor in minutes; null: each schedule's own (defaultGraceMinutes). */
  duration: number | null;
  /** Null only for a dry run. */
  api: ApiClient | null;
  /** Where the fail-open entry point goes, and the job runner copied beside it. */
  shim: ShimPlan;
  runnerSource: string;
  /** The agent, written as --url when it is not the default one (cron does not see our environment). */
  url: string | null;
  /** The zone of jobs without CRON_TZ: this machine's. */
  machineZone: string;
  /** Where a backup of `crontab -l` goes (a file's backup goes next to it). */
  dataDir: string;
  now: Date;
  /** The key discover talks to the API with (--by-name puts it in the crontab when it is a ping key). */
  apiToken?: string;
}

interface Plan {
  job: CronJob;
  name: string;
  timezone: string;
  duration: number;
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
  const record = rememberWiredLines(source, all, options.dataDir);
  const plans: Plan[] = [];
  const notes = new Set<string>();
  for (const job of jobsToMonitor(crontab.lines)) {
    const zone = cronZone(job.timezone ?? options.machineZone);
    const shell = shellProblem(job.shell);
    const long = tooLongToWrap(job, { shim: options.shim.shim, url: options.url });
    if (zone.zone === undefined) console.error(`cronbeat: line ${job.line} skipped: ${zone.error}`);
    else if (shell) console.log(`Line ${job.line} left alone: ${shell}.`);
    else if (long) console.log(`Line ${job.line} left alone: ${long}.`);
    else {
      if (zone.note) notes.add(zone.note);
      plans.push({ job, name: monitorNameFor(job.shellCommand), timezone: zone.zone, duration: options.duration ?? defaultGraceMinutes(job.schedule, options.now.getTime()) });
    }
  }
  for (const note of notes) console.log(note);
  // Lines an older discover wrote (a cronbeat path that may be a cache, no fail-open): moved to the entry point.
  const upgrades = all.flatMap((job) => {
    const line = monitoredLine(job);
    return line && !line.failsOpen ? [{ job, line }] : [];
  });
  const monitored = all.filter((job) => !job.unmonitorable).length - jobsToMonitor(crontab.lines).length - upgrades.length;
  const unmonitorable = all.filter((job) => job.unmonitorable);
  for (const job of unmonitorable) console.log(`Line ${job.line} left alone: ${job.unmonitorable}.`);
  for (const line of crontab.lines) if (line.kind === 'invalid') console.log(`Line ${line.line} left alone: ${line.reason.replace(/\.$/, '')}.`);
  if (monitored > 0) console.log(`${monitored} job${monitored === 1 ? '' : 's'} already run${monitored === 1 ? 's' : ''} through cronbeat; left as ${monitored === 1 ? 'it is' : 'they are'}.`);
  if (plans.length === 0 && upgrades.length === 0) {
    console.log('Nothing to do: no job without a monitor.');
    // Run again after an upgrade, it still brings the entry point its lines call up to date.
    const callsShim = all.some((job) => monitoredLine(job)?.shim === options.shim.shim);
    if (!options.dryRun) saveRecord(record.lines);
    if (callsShim && !options.dryRun) return refreshShim(options, othersMustRunOf(all, source));
    return 0;
  }

  const othersMustRun = othersMustRunOf(all, source);
  if (options.dryRun) {
    console.log(`Entry point: ${options.shim.shim} (fails open: the job runs directly when Cronbeat cannot run it), with the job runner ${options.shim.runner}.`);
    const known = (job: CronJob) => record.lines.tokensOf(lineKey(source, job)).some((token) => !record.inUse.has(token));
    if (plans.length > 0) console.log(`Would create ${plans.length} monitor${plans.length === 1 ? '' : 's'} and rewrite ${source.label}:`);
    for (const plan of plans) {
      const again = known(plan.job) ? ' (or the monitor an earlier discover made for this line, if it still exists)' : '';
      console.log(`  line ${plan.job.line}: "${plan.name}"  ${plan.job.schedule}  ${plan.timezone}  grace ${plan.duration} min${again}`);
      console.log(`    ${rewriteJobLine(plan.job, '<monitor-token>', { shim: options.shim.shim, url: options.url }, { id: null, name: plan.name })}`);
    }
    for (const { job, line } of upgrades) {
      console.log(`  line ${job.line}: already monitored; would move to the entry point:`);
      console.log(`    ${failOpenLine(job, line, options.shim.shim)}`);
    }
    return 0;
  }

  if (refreshShim(options, othersMustRun) !== 0) return 1;
  let reused: Map<CronJob, MonitorSummary>;
  try {
    reused = await recordedMonitors(record.lines, plans.map(({ job }) => ({ job, key: lineKey(source, job) })), record.inUse, options.api!);
  } catch (error) {
    console.error(`cronbeat: cannot list the monitors to find those an earlier discover made: ${describeError(error)}`);
    return 1;
  }
  const created: { plan: Plan; monitor: MonitorSummary }[] = [];
  let failure: string | null = null;
  const progress = progressLine('Creating monitors', counted('crontab lines'));
  for (const plan of plans) {
    progress.update(created.length, plans.length);
    try {
      const monitor = reused.get(plan.job) ?? (await options.api!.createMonitor({ name: plan.name, schedule: plan.job.schedule, timezone: plan.timezone, duration: plan.duration }));
      // Its token goes into the line unquoted, its id into the comment: they must be a token and an id, whoever answered.
      failure = monitorToWriteProblem(monitor);
      if (failure) break;
      created.push({ plan, monitor });
    } catch (error) {
      failure = describeError(error);
      break;
    }
  }
  progress.end();
  for (const { plan, monitor } of created) record.lines.remember(lineKey(source, plan.job), monitor.token);
  saveRecord(record.lines);
  const made = created.filter(({ plan }) => !reused.has(plan.job));
  if (created.length > 0 || upgrades.length > 0) {
    const lines = crontab.text.split('\n');
    for (const { plan, monitor } of created) {
      lines[plan.job.line - 1] = rewriteJobLine(plan.job, monitor.token, { shim: options.shim.shim, url: options.url }, { id: monitor.id, name: monitor.name });
    }
    for (const { job, line } of upgrades) lines[job.line - 1] = failOpenLine(job, line, options.shim.shim);
    const backup = writeWithBackup(source, crontab, lines.join('\n'), options);
    if (made.length > 0) {
      printTable(
        made.map(({ plan, monitor }) => ({ line: plan.job.line, monitor: monitor.id, name: monitor.name, schedule: monitor.schedule, timezone: monitor.timezone, grace: `${monitor.duration} min`, token: monitor.token })),
        ['line', 'monitor', 'schedule', 'timezone', 'grace', 'token', 'name'],
      );
    }
    for (const { plan, monitor } of created) {
      if (reused.has(plan.job)) console.log(printable(`Line ${plan.job.line}: the monitor an earlier discover made for it, #${monitor.id} "${monitor.name}", again.`));
    }
    for (const { job } of upgrades) console.log(`Line ${job.line} now runs through ${options.shim.shim} and fails open.`);
    console.log(`${madeAndReused(made.length, created.length - made.length)} ${source.label} (the original is kept in ${backup}; \`cronbeat crontab discover --undo\` puts the commands back).`);
    const open = source.path ? readableByAll(source.path) : null;
    // Not refused: /etc/crontab and /etc/cron.d are 0644 as installed, and a token pulses its one monitor only.
    if (open) console.log(`Note: every user of this machine can read ${open} (mode ${modeOf(open)}), and with a line's token pulse its monitor as if the job ran. \`chmod 600 ${shellQuote(open)}\` keeps the tokens to root (cron reads it as root).`);
  }
  if (failure) {
    console.error(`cronbeat: stopped after ${created.length} of ${plans.length} monitors: ${failure}. Run discover again to continue.`);
    return 1;
  }
  return 0;
}

/**
 * Puts back the commands of every line discover rewrote (either form), after a backup. The
 * monitors stay (delete them in the dashboard). Returns the exit status.
 */
export function undoDiscover(options: Pick<DiscoverOptions, 'source' | 'dryRun' | 'dataDir' | 'now'> & { deleting?: boolean }): { code: number; tokens: string[] } {
  const crontab = readCrontab(options.source);
  const undone = crontab
    ? jobsOf(crontab.lines).flatMap((job) => {
        const line = monitoredLine(job);
        return line ? [{ job, text: undoneLine(job, line), token: line.token }] : [];
      })
    : [];
  if (!crontab || undone.length === 0) {
    console.log(`No line of ${options.source.label} runs through cronbeat: nothing to undo.`);
    return { code: 0, tokens: [] };
  }
  const tokens = undone.map(({ token }) => token);
  for (const { job, text } of undone) console.log(`  line ${job.line}: ${text}`);
  if (options.dryRun) {
    console.log(`Would put back ${undone.length} command${undone.length === 1 ? '' : 's'} in ${options.source.label}${options.deleting ? ' and delete their monitors' : ''}.`);
    return { code: 0, tokens };
  }
  // Before the tokens leave the crontab: a later discover of the same lines takes their monitors again.
  saveRecord(rememberWiredLines(options.source, jobsOf(crontab.lines), options.dataDir).lines);
  const lines = crontab.text.split('\n');
  for (const { job, text } of undone) lines[job.line - 1] = text;
  const backup = writeWithBackup(options.source, crontab, lines.join('\n'), options);
  const monitors = options.deleting ? '' : ' Their monitors are kept: delete them with --delete-monitors or in the dashboard, or they fail at their next missed run.';
  console.log(`Put back ${undone.length} command${undone.length === 1 ? '' : 's'} in ${options.source.label} (the rewritten crontab is kept in ${backup}).${monitors}`);
  return { code: 0, tokens };
}

/** "Created 2 monitors, reused 1 and rewrote", "Reused 1 monitor and rewrote", "Rewrote". */
function madeAndReused(made: number, reused: number): string {
  const monitors = (count: number) => `${count} monitor${count === 1 ? '' : 's'}`;
  if (made > 0 && reused > 0) return `Created ${monitors(made)}, reused ${reused} and rewrote`;
  if (made > 0) return `Created ${monitors(made)} and rewrote`;
  if (reused > 0) return `Reused ${monitors(reused)} and rewrote`;
  return 'Rewrote';
}

/** The record of discovered lines, with the lines of this crontab that run through cronbeat now added, and their tokens. */
function rememberWiredLines(source: CrontabSource, jobs: CronJob[], dataDir: string): { lines: DiscoveredLines; inUse: Set<string> } {
  const lines = DiscoveredLines.read(dataDir);
  const inUse = new Set<string>();
  for (const job of jobs) {
    const line = monitoredLine(job);
    if (!line || line.token.startsWith('--')) continue;
    inUse.add(line.token);
    lines.remember(wiredLineKey(source, job, line), line.token);
  }
  return { lines, inUse };
}

/** Keeps the record; without it, only reuse after an undo is lost, so a failure is a warning. */
function saveRecord(lines: DiscoveredLines): void {
  try {
    lines.save();
  } catch (error) {
    console.error(`cronbeat: warning: cannot keep which monitor each line has (${(error as Error).message}); after an undo, discover would make new ones.`);
  }
}

/** Whether jobs of users other than this one (root aside) run from the crontab, so they must be able to run the entry point. */
export function othersMustRunOf(jobs: CronJob[], source: CrontabSource): boolean {
  return jobs.some((job) => job.user !== null && job.user !== 'root') || (source.owner !== null && source.owner !== currentUserName());
}

/** Installs or updates the entry point (saying so when an existing one changed); 1 when it cannot. */
export function refreshShim(options: Pick<DiscoverOptions, 'shim' | 'runnerSource'>, othersMustRun: boolean): number {
  try {
    const existed = existsSync(options.shim.shim);
    if (installShim(options.shim, options.runnerSource, othersMustRun) && existed) console.log(`Updated the entry point ${options.shim.shim} and its job runner.`);
    return 0;
  } catch (error) {
    if (!(error instanceof ShimError)) throw error;
    console.error(`cronbeat: ${error.message}`);
    return 1;
  }
}

function currentUserName(): string | null {
  try {
    return userInfo().username;
  } catch {
    return null;
  }
}
