import { randomUUID } from 'node:crypto';
import { userInfo } from 'node:os';
import { ApiError, type ApiClient } from '../../client/connection/api';
import { UsageError } from '../command';
import { everyInterval, watcherName, learnedInterval, loadWatchState, onceWhileItHolds, runsAfter, saveWatchState, stampedLog, watchStateFile } from '../watchState';
import { defaultGraceMinutes } from '../../domain/monitors/dueTime';
import { checkSchedule } from '../../domain/schedules';
import { timerGrace } from './unitFile';
import { findTimers, type UnitFolders } from './units';
import { wiredServices } from './wired';

/*
 * `timers watch`: the timers discover wired, snapshot after snapshot. A timer whose schedule
 * changed is one `altered` alert and its monitor takes the new schedule (and the grace that
 * goes with it); a timer gone (or its drop-in removed) is one `removed` alert; a timer whose
 * RandomizedDelaySec= or AccuracySec= changed runs later or sooner on the same schedule, so its
 * monitor takes the grace that goes with them, with no alert. Alerts and edits
 * are saved with the snapshot before they are sent, so each is made exactly once, across
 * restarts and while the agent cannot be reached.
 */

export interface TimersWatchOptions {
  server: string;
  folders: UnitFolders;
  /** --root, which names its state file; null for the machine's own unit folders. */
  root: string | null;
  api: ApiClient;
  dataDir: string;
  intervalMs: number;
  /** False when --interval was left out: a --once run then learns how often it is started (learnedInterval). */
  intervalGiven: boolean;
  once: boolean;
  grace: number | null;
  log?: (line: string) => void;
}

interface Watched {
  token: string;
  timer: string;
  schedule: string;
  /** Minutes systemd may add to a run (timerGrace of none); absent in state files written before it was kept. */
  delay?: number;
}

interface Pending {
  /** `delay`: only the grace follows (RandomizedDelaySec=, AccuracySec=), no alert is sent. */
  change: 'altered' | 'removed' | 'delay';
  timer: string;
  schedule: string;
  previous: string;
  /** The monitor to follow the new schedule (altered only). */
  follow: { token: string; duration: number } | null;
  /** Its alert's Idempotency-Key, so a retry after a lost answer is stored once (absent in older state files until sent). */
  key?: string;
}

interface State {
  version: 1;
  timers: Watched[];
  pending: Pending[];
  /** When the latest --once runs started (runsAfter), to learn their interval. */
  runs?: number[];
}


/** The wired timers now, with a valid schedule each. */
function snapshot(folders: UnitFolders): Watched[] {
  const wired = wiredServices(folders.write);
  const timers = findTimers(folders);
  const now: Watched[] = [];
  for (const { service, token, timer: wiredFor } of wired) {
    // The timer the drop-in was written for: another timer of the service is not its monitor's.
    const timer = timers.find((t) => t.service === service && (wiredFor ?? t.name) === t.name && t.schedule !== null && t.unmonitorable === null);
    const schedule = timer ? checkSchedule(timer.schedule!).schedule : undefined;
    if (timer && schedule !== undefined) now.push({ token, timer: timer.name, schedule, delay: timerGrace(0, timer) });
  }
  return now;
}

/** The changes between two snapshots, as pending alerts (and edits). */
export function changesOf(before: Watched[], after: Watched[], graceOf: (timer: string, schedule: string) => number): Pending[] {
  const pending: Pending[] = [];
  for (const old of before) {
    const now = after.find((w) => w.token === old.token);
    if (!now) pending.push({ change: 'removed', timer: old.timer, schedule: '', previous: old.schedule, follow: null });
    else if (now.schedule !== old.schedule) {
      pending.push({ change: 'altered', timer: now.timer, schedule: now.schedule, previous: old.schedule, follow: { token: now.token, duration: graceOf(now.timer, now.schedule) } });
    } else if (old.delay !== undefined && now.delay !== undefined && now.delay !== old.delay) {
      pending.push({ change: 'delay', timer: now.timer, schedule: now.schedule, previous: old.schedule, follow: { token: now.token, duration: graceOf(now.timer, now.schedule) } });
    }
  }
  return pending;
}

function words(pending: Pending): string {
  const flat = (schedule: string) => schedule.split('\n').join(' | ');
  if (pending.change === 'delay') return `${pending.timer}: its RandomizedDelaySec= and AccuracySec= changed`;
  return pending.change === 'removed' ? `${pending.timer} removed (was ${flat(pending.previous)})` : `${pending.timer}: ${flat(pending.previous)} → ${flat(pending.schedule)}`;
}

function whose(folders: UnitFolders): string {
  if (folders.scope === 'system') return 'root';
  try {
    return userInfo().username;
  } catch {
    return 'user';
  }
}

/** Sends what waits, oldest first; the number still waiting. */
async function deliver(options: TimersWatchOptions, file: string, log: (line: string) => void): Promise<number> {
  const state = loadWatchState<State>(file, 'timers')!;
  while (state.pending.length > 0) {
    const next = state.pending[0]!;
    try {
      if (next.follow) {
        const monitor = (await options.api.listMonitors()).find((m) => m.token === next.follow!.token);
        if (monitor) await options.api.editMonitor(monitor.id, { schedule: next.schedule, duration: next.follow.duration });
        const followed = next.change === 'delay' ? `now waits ${next.follow.duration} min after each run of ${next.timer} (its RandomizedDelaySec= and AccuracySec= changed)` : `now follows ${words(next)}`;
        log(monitor ? `monitor #${monitor.id} ${followed}` : `the monitor of ${next.timer} is gone: nothing to edit`);
        next.follow = null;
        saveWatchState(file, state);
      }
      if (next.change === 'delay') {
        state.pending.shift();
        saveWatchState(file, state);
        continue;
      }
      const command = next.change === 'removed' ? `timer ${next.timer}: ${next.previous}` : `timer ${next.timer}: ${next.schedule}`;
      if (next.key === undefined) {
        // Kept before it is sent: a retry must carry the same key.
        next.key = randomUUID();
        saveWatchState(file, state);
      }
      await options.api.alertServer({ username: whose(options.folders), server_id: options.server, command, change: next.change, previous_command: next.change === 'altered' ? `timer ${next.timer}: ${next.previous}` : null }, next.key);
    } catch (error) {
      if (error instanceof ApiError && error.retryable) {
        log(`${state.pending.length} change${state.pending.length === 1 ? '' : 's'} waiting, not delivered: ${error.message}; will retry`);
        return state.pending.length;
      }
      throw error;
    }
    log(`delivered: ${words(state.pending.shift()!)}`);
    saveWatchState(file, state);
  }
  return 0;
}

/**
 * Tells the agent this watcher is alive with every snapshot (the dashboard marks one gone quiet).
 * At start, an identifier no server has stops it (exit 2) rather than failing at the first change.
 */
async function report(options: TimersWatchOptions, interval: number, timers: number, atStart: boolean, log: (line: string) => void): Promise<void> {
  try {
    await options.api.serverHeartbeat({ server_id: options.server, interval_seconds: interval, jobs: timers, watcher: watcherName(`timers-watch-${options.folders.scope}`, watchedRoot(options)) });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (atStart && error.status === 404) throw new UsageError(`No server has the identifier "${options.server}": add it in the dashboard (Servers → Add server) or check --server.`);
    if (atStart && error.status === 401) throw new UsageError(`The agent refused the API token (401): make one with \`cronbeat token create\` and set CRONBEAT_API_TOKEN or pass --token.`, 1);
    log(`warning: report not sent: ${error.message}`);
  }
}

/** The other machine's root it watches (--root), which names its state file and its reports; none for this machine. */
const watchedRoot = (options: TimersWatchOptions) => (options.root === null || options.root === '/' ? [] : [options.root]);

export async function watchTimers(options: TimersWatchOptions): Promise<number> {
  const said = onceWhileItHolds(options.log ?? stampedLog);
  const log = said.log;
  let atStart = true;
  // Another --root is another machine's timers: a snapshot of its own, not one they undo each other's in.
  const file = watchStateFile(options.dataDir, `timers-watch-${options.folders.scope}`, options.server, watchedRoot(options));
  const timers = new Map(findTimers(options.folders).map((t) => [t.name, t]));
  const graceOf = (timer: string, schedule: string) => {
    const found = timers.get(timer);
    const base = options.grace ?? defaultGraceMinutes(schedule, Date.now());
    return found ? timerGrace(base, found) : base;
  };
  return everyInterval(options.intervalMs, async () => {
    said.nextRound();
    for (const t of findTimers(options.folders)) timers.set(t.name, t);
    const now = snapshot(options.folders);
    const state = loadWatchState<State>(file, 'timers');
    if (!state) log(`watching ${now.length} timer${now.length === 1 ? '' : 's'}; changes from now on are reported`);
    const found = state ? changesOf(state.timers, now, graceOf) : [];
    for (const change of found) log(`found: ${words(change)}`);
    const startedAt = Date.now();
    // Without --interval, a --once run says how often it is started only by the runs before it.
    const interval = options.once && !options.intervalGiven ? learnedInterval(state?.runs ?? [], startedAt) : Math.round(options.intervalMs / 1000);
    const runs = options.once ? runsAfter(state?.runs, startedAt) : state?.runs;
    saveWatchState(file, { version: 1, timers: now, pending: [...(state?.pending ?? []), ...found], runs });
    const left = await deliver(options, file, log);
    await report(options, interval, now.length, atStart, log);
    atStart = false;
    return options.once ? (left === 0 ? 0 : 1) : null;
  });
}
