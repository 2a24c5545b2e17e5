import { randomUUID } from 'node:crypto';
import { ApiError, type ApiClient } from '../../client/connection/api';
import { shownUrl } from '../../client/connection/baseUrl';
import { UsageError } from '../command';
import { adoptSharedState, everyInterval, watcherName, learnedInterval, loadWatchState, onceWhileItHolds, runsAfter, saveWatchState, stampedLog, watchStateFile } from '../watchState';
import { readCrontab } from './jobs';
import { runPartsEntries } from './runParts';
import { diffSnapshots, snapshotJobs, type ChangeKind, type SnapshotJob } from './snapshot';
import { CrontabReadError, type CrontabSource } from './sources';

export interface WatchOptions {
  server: string;
  sources: CrontabSource[];
  /** Folders run-parts runs (/etc/cron.daily…), their scripts watched; and whose name rules it follows. */
  runParts: { folders: string[]; debian: boolean };
  api: ApiClient;
  dataDir: string;
  intervalMs: number;
  /** False when --interval was left out: a --once run then learns how often it is started. */
  intervalGiven: boolean;
  once: boolean;
  /** The files given with --file/--system-file (their format and path), which name its state file; empty for the machine's crontabs. */
  files: string[];
  /** The agent's address, for messages. */
  url: string;
  log?: (line: string) => void;
}

/** The body of POST /api/servers/alert, plus what kind of change it was and the line before. */
interface PendingAlert {
  username: string;
  server_id: string;
  command: string;
  change: ChangeKind;
  previous_command: string | null;
  /** Sent as its Idempotency-Key, so a retry after a lost answer is stored once (absent in older state files until sent). */
  key?: string;
}

/** What the watcher keeps on disk: the last snapshot, and alerts raised but not yet delivered. */
interface WatchState {
  version: 1;
  server: string;
  jobs: SnapshotJob[];
  pending: PendingAlert[];
  /** Its jobs hold the settings and the lines Cronbeat reads as no job too; absent in a state written before they did. */
  everyLine?: true;
  /** When the latest --once runs started (runsAfter), to learn their interval. */
  runs?: number[];
  /** Its jobs hold the scripts of run-parts' folders; absent in a state written before they were watched. */
  runParts?: true;
}

/** Waits between delivery attempts of a `--once` run. */
const ONCE_RETRY_DELAYS_MS = [1_000, 3_000];

/**
 * The server-side watcher. Each round snapshots every crontab's jobs, turns what changed since
 * the snapshot on disk into alerts, saves both at once, then delivers the alerts in order,
 * each removed from disk as soon as the API took it: every change is alerted exactly once,
 * across restarts and while the API is unreachable. Returns the exit status.
 */
export async function watch(options: WatchOptions): Promise<number> {
  const said = onceWhileItHolds(options.log ?? stampedLog);
  const log = said.log;
  const stateFile = watchStateFile(options.dataDir, 'crontab-watch', options.server, options.files);
  const shared = watchStateFile(options.dataDir, 'crontab-watch', options.server);
  if (options.files.length > 0) adoptSharedState(stateFile, shared, (state) => Array.isArray(state.jobs) && state.jobs.length > 0 && state.jobs.every((job: { source?: string }) => options.sources.some((source) => source.label === job.source)));
  const startedAt = Date.now();
  const interval = reportedInterval(options, loadWatchState<WatchState>(stateFile, 'jobs'), startedAt);
  await checkAtStart(options, interval, log);
  return everyInterval(options.intervalMs, async () => {
    said.nextRound();
    const jobs = snapshotRound(options, stateFile, log, startedAt);
    const delays = options.once ? ONCE_RETRY_DELAYS_MS : [];
    let left = await deliver(options.api, stateFile, log);
    for (const delay of delays) {
      if (left === 0) break;
      await new Promise((resolve) => setTimeout(resolve, delay));
      left = await deliver(options.api, stateFile, log);
    }
    await heartbeat(options, interval, jobs, log);
    if (!options.once) return null;
    if (left > 0) log(`not delivered: ${left} alert${left === 1 ? '' : 's'} kept in ${stateFile}; the next run sends ${left === 1 ? 'it' : 'them'}`);
    return left === 0 ? 0 : 1;
  });
}

/**
 * Reports once before watching, so a wrong --server or token fails at start with a clear line
 * (exit 2 and 1), not at the first change. An agent that cannot be reached is no reason to stop:
 * alerts wait on disk until it is back.
 */
async function checkAtStart(options: WatchOptions, interval: number, log: (line: string) => void): Promise<void> {
  try {
    await options.api.serverHeartbeat({ server_id: options.server, interval_seconds: interval, jobs: null, watcher: watcherOf(options) });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.retryable) {
      log(`warning: ${error.message}; cannot check --server ${options.server} and the token now; watching anyway, alerts wait on disk until the agent answers`);
      return;
    }
    if (error.status === 404) return checkServerListed(options, log);
    if (error.status === 401) {
      throw new UsageError(`The agent at ${shownUrl(options.url)} refused the API token (401): make one with \`cronbeat token create\` and set CRONBEAT_API_TOKEN or pass --token.`, 1);
    }
    throw new UsageError(error.message, 1);
  }
}

/**
 * After a 404 for the report: either no server has the identifier, or the agent predates
 * reports (no such route). The servers it lists say which.
 */
async function checkServerListed(options: WatchOptions, log: (line: string) => void): Promise<void> {
  let listed: boolean;
  try {
    listed = (await options.api.servers(options.server)).some((server) => server.identifier === options.server);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // A ping key may report but not list. An agent that takes no reports refuses a ping key's
    // report (403) before it could say 404, so this 404 came from one that knows no such server.
    if (error.status === 403) throw unknownServer(options);
    log(`warning: ${error.message}; cannot check --server ${options.server} now; watching anyway`);
    return;
  }
  if (!listed) throw unknownServer(options);
  log(`warning: the agent at ${shownUrl(options.url)} takes no reports (an older version?): cannot check --server ${options.server} now; watching anyway`);
}

/** The one line for a --server no server of the agent has (exit 2). */
export function unknownServer(options: Pick<WatchOptions, 'server' | 'url'>): UsageError {
  return new UsageError(`No server has the identifier "${options.server}" at ${shownUrl(options.url)}: add it in the dashboard (Servers → Add server) or check --server.`);
}

/**
 * The watcher's interval as it reports it: --interval when given; a --once run without it tells
 * how often cron or a timer starts it only by the runs before (learnedInterval).
 */
function reportedInterval(options: WatchOptions, state: WatchState | null, now: number): number {
  if (options.once && !options.intervalGiven) return learnedInterval(state?.runs ?? [], now);
  return Math.round(options.intervalMs / 1000);
}

/** The name this watcher reports under: a watcher of other files of the same server counts its own jobs (watcherName). */
const watcherOf = (options: WatchOptions) => watcherName('crontab-watch', options.files);

/** Tells the agent this watcher is alive, changes or not. Never fatal: a missed report shows as quiet. */
async function heartbeat(options: WatchOptions, interval: number, jobs: number, log: (line: string) => void): Promise<void> {
  try {
    await options.api.serverHeartbeat({ server_id: options.server, interval_seconds: interval, jobs, watcher: watcherOf(options) });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    log(`warning: report not sent: ${error.message}`);
  }
}

/** Takes a snapshot and records what changed; returns how many jobs it saw. A crontab that cannot be read keeps its old jobs. */
function snapshotRound(options: WatchOptions, stateFile: string, log: (line: string) => void, startedAt: number): number {
  const previous = loadWatchState<WatchState>(stateFile, 'jobs');
  const jobs: SnapshotJob[] = [];
  for (const source of options.sources) {
    try {
      const crontab = readCrontab(source);
      if (crontab) jobs.push(...snapshotJobs(source.label, source.owner, crontab.lines));
    } catch (error) {
      if (!(error instanceof CrontabReadError)) throw error;
      log(`warning: ${error.message}; its jobs are kept as they were`);
      jobs.push(...(previous?.jobs ?? []).filter((job) => job.source === source.label));
    }
  }
  for (const folder of options.runParts.folders) {
    try {
      jobs.push(...(runPartsEntries(folder, options.runParts.debian) ?? []));
    } catch (error) {
      if (!(error instanceof CrontabReadError)) throw error;
      log(`warning: ${error.message}; its scripts are kept as they were`);
      jobs.push(...(previous?.jobs ?? []).filter((job) => job.source === folder));
    }
  }
  const watched = jobs.filter((job) => !job.refused && job.setting === undefined && job.script === undefined);
  if (!previous) {
    saveWatchState(stateFile, { version: 1, server: options.server, jobs, pending: [], everyLine: true, runs: options.once ? [startedAt] : undefined, runParts: true });
    const users = new Set(watched.map((job) => job.user)).size;
    const scripts = jobs.filter((job) => job.script !== undefined).length;
    const andScripts = options.runParts.folders.length > 0 ? ` and ${scripts} script${scripts === 1 ? '' : 's'} run-parts runs` : '';
    log(`watching ${watched.length} cron job${watched.length === 1 ? '' : 's'} of ${users} user${users === 1 ? '' : 's'}${andScripts} on ${options.server}; changes from now on are alerted`);
    return watched.length;
  }
  // A snapshot from before settings and lines read as no job were watched never saw them, nor
  // cronie's "-" lines (no job then): those there now are its baseline, not additions; and a line
  // it took for a job that is none ("@DAILY") is the same line, not one removed.
  const unseen = jobs.filter((job) => job.refused || job.setting !== undefined || job.text.startsWith('-'));
  const lines = previous.everyLine ? previous.jobs : [...previous.jobs.filter((old) => !unseen.some((now) => now.refused && now.text === old.text)), ...unseen];
  // Nor did one from before run-parts' scripts were watched see them: those there now are its baseline.
  const before = previous.runParts ? lines : [...lines, ...jobs.filter((job) => job.script !== undefined)];
  const alerts = diffSnapshots(before, jobs).map(
    (change): PendingAlert => ({ username: change.user, server_id: options.server, command: change.text, change: change.kind, previous_command: change.previous, key: randomUUID() }),
  );
  for (const alert of alerts) log(`found: ${describe(alert)}`);
  const runs = options.once ? runsAfter(previous.runs, startedAt) : previous.runs;
  saveWatchState(stateFile, { ...previous, jobs, pending: [...previous.pending, ...alerts], everyLine: true, runs, runParts: true });
  return watched.length;
}

function describe(alert: PendingAlert): string {
  const was = alert.previous_command ? ` (was: ${alert.previous_command})` : '';
  return `${alert.change} for ${alert.username}: ${alert.command}${was}`;
}

/**
 * Posts pending alerts in order, saying of each whether it was delivered or waits; returns how
 * many are left. Throws ApiError when the API refuses one.
 */
async function deliver(api: ApiClient, stateFile: string, log: (line: string) => void): Promise<number> {
  const state = loadWatchState<WatchState>(stateFile, 'jobs')!;
  while (state.pending.length > 0) {
    const { key, ...alert } = state.pending[0]!;
    if (key === undefined) {
      // Kept before it is sent: a retry must carry the same key.
      state.pending[0]!.key = randomUUID();
      saveWatchState(stateFile, state);
    }
    try {
      await api.alertServer(alert, state.pending[0]!.key);
    } catch (error) {
      if (error instanceof ApiError && error.retryable) {
        const count = state.pending.length;
        log(`${count} alert${count === 1 ? '' : 's'} waiting, not delivered: ${error.message}; will retry`);
        for (const alert of state.pending) log(`  waiting: ${describe(alert)}`);
        return count;
      }
      throw error;
    }
    log(`delivered: ${describe(state.pending.shift()!)}`);
    saveWatchState(stateFile, state);
  }
  return 0;
}

