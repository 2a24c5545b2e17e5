import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { type ApiClient, type MonitorSummary } from '../../client/connection/api';
import { defaultGraceMinutes } from '../../domain/monitors/dueTime';
import { checkSchedule } from '../../domain/schedules';
import { serverTag } from '../../domain/monitors/ownLine';
import { DiscoveredLines } from '../crontab/discovered';
import { refreshShim } from '../crontab/discover';
import type { ShimPlan } from '../crontab/shim';
import { printTable } from '../crontab/table';
import { DROP_IN_NAME, dropInText } from './dropIn';
import { timerGrace, timerTag } from './unitFile';
import { dropInFolder, findTimers, type FoundTimer, type UnitFolders } from './units';
import { checkWritable, removeDropIn, wiredServices, Writes, type WiredService } from './wired';
import { describeError } from '../../domain/text/errorText';
import { monitorToWriteProblem } from '../../domain/text/tokenWord';

const RECORD = 'timers-discovered.json';

export interface TimersOptions {
  folders: UnitFolders;
  /** Set with --root: there is no systemd to reload. */
  root: string | null;
  dryRun: boolean;
  reload: boolean;
  /** Minutes; null: the schedule's own, plus the timer's delays either way. */
  grace: number | null;
  server: string | null;
  api: ApiClient | null;
  shim: ShimPlan;
  runnerSource: string;
  url: string;
  machineZone: string;
  dataDir: string;
  now: Date;
}

export interface TimerRow {
  timer: FoundTimer;
  status: string;
  /** Set when discover would wire it. */
  schedule: string | null;
  grace: number | null;
}

/** Each timer with what discover does with it. */
export function timerRows(folders: UnitFolders, options: Pick<TimersOptions, 'grace' | 'now'>): TimerRow[] {
  const wired = new Map(wiredServices(folders.write).map((w) => [w.service, w]));
  // A service has one drop-in, so one monitor: a second timer's monitor would never hear from it.
  const wiring = new Map<string, string>();
  return findTimers(folders).map((timer) => {
    const none = { timer, schedule: null, grace: null };
    const wiredFor = wired.get(timer.service);
    if (wiredFor && (wiredFor.timer ?? timer.name) === timer.name) return { ...none, status: 'monitored' };
    if (!timer.enabled) return { ...none, status: 'not enabled: it never runs' };
    if (wiredFor) return { ...none, status: `left alone: ${wiredFor.timer} starts ${timer.service} too, and its drop-in pulses that timer's monitor` };
    if (timer.unmonitorable) return { ...none, status: `not monitorable: ${timer.unmonitorable}` };
    const checked = checkSchedule(timer.schedule!);
    if (checked.schedule === undefined) return { ...none, status: `not monitorable: ${checked.error}` };
    if (existsSync(join(dropInFolder(folders, timer.service), DROP_IN_NAME))) return { ...none, status: `left alone: a ${DROP_IN_NAME} of someone else is in ${dropInFolder(folders, timer.service)}` };
    const first = wiring.get(timer.service);
    if (first) return { ...none, status: `left alone: ${first} starts ${timer.service} too, and its drop-in pulses that timer's monitor` };
    wiring.set(timer.service, timer.name);
    const base = options.grace ?? defaultGraceMinutes(checked.schedule, options.now.getTime());
    const status = timer.ignored.length > 0 ? `to monitor (systemd ignores ${timer.ignored.join(' and ')})` : 'to monitor';
    return { timer, status, schedule: checked.schedule, grace: timerGrace(base, timer) };
  });
}

function seconds(value: number): string {
  if (value === Infinity) return 'infinity';
  return Number.isInteger(value) ? `${value}s` : `${value.toFixed(3)}s`;
}

export function printTimers(rows: TimerRow[]): void {
  if (rows.length === 0) {
    console.log('No timers found.');
    return;
  }
  printTable(
    rows.map(({ timer, status }) => ({
      timer: timer.name,
      schedule: (timer.schedule ?? '-').split('\n').join(' | '),
      randomized: seconds(timer.randomizedDelaySec),
      accuracy: seconds(timer.accuracySec),
      persistent: timer.persistent ? 'yes' : 'no',
      service: timer.service,
      status,
    })),
    ['timer', 'schedule', 'randomized', 'accuracy', 'persistent', 'service', 'status'],
  );
}

/** A timer as discover knows it again after --undo: its scope, its unit folder, its name and its service. */
function timerKey(folders: UnitFolders, timer: FoundTimer): string {
  return createHash('sha256').update(JSON.stringify([folders.scope, folders.write, timer.name, timer.service])).digest('hex');
}

function reloadCommand(options: Pick<TimersOptions, 'folders'>): string[] {
  return options.folders.scope === 'user' ? ['systemctl', '--user', 'daemon-reload'] : ['systemctl', 'daemon-reload'];
}

/** Says (or with --reload, runs) the daemon-reload that makes systemd read the drop-ins. Returns the exit status. */
function reload(options: Pick<TimersOptions, 'folders' | 'root' | 'reload'>): number {
  const command = reloadCommand(options);
  if (options.root !== null) {
    console.log(`The units are under --root ${options.root}: \`${command.join(' ')}\` there (in the container or machine) makes systemd read them.`);
    return 0;
  }
  if (!options.reload) {
    console.log(`Run \`${command.join(' ')}\` so systemd reads the change (or give --reload).`);
    return 0;
  }
  const result = spawnSync(command[0]!, command.slice(1), { stdio: 'inherit' });
  if (result.status === 0) return 0;
  console.error(`cronbeat: \`${command.join(' ')}\` failed (${result.error?.message ?? `exit status ${result.status}`}): run it yourself.`);
  return 1;
}

function saveRecord(record: DiscoveredLines): void {
  try {
    record.save();
  } catch (error) {
    console.error(`cronbeat: warning: cannot keep which monitor each timer has (${(error as Error).message}); after an undo, discover would make new ones.`);
  }
}

/** Makes a monitor per timer to monitor (or takes the one an earlier discover made) and wires its service. */
export async function discoverTimers(options: TimersOptions): Promise<number> {
  const { folders } = options;
  const rows = timerRows(folders, options);
  printTimers(rows);
  const plans = rows.filter((row) => row.schedule !== null);
  if (plans.length === 0) {
    console.log('Nothing to do: no enabled timer without a monitor.');
    return 0;
  }
  if (options.dryRun) {
    console.log(`Would create ${plans.length} monitor${plans.length === 1 ? '' : 's'} and write:`);
    for (const { timer, grace } of plans) {
      console.log(`  ${timer.name}: a monitor, grace ${grace} min; ${timer.service} pulses through ${join(dropInFolder(folders, timer.service), DROP_IN_NAME)}:`);
      const text = dropInText({ monitorId: '<monitor-id>', timer: timer.name, shim: options.shim.shim, token: '<monitor-token>', url: options.url });
      for (const line of text.trimEnd().split('\n')) console.log(`    ${line}`);
    }
    console.log(`Then: \`${reloadCommand(options).join(' ')}\`.`);
    return 0;
  }

  checkWritable(folders.write);
  if (refreshShim(options, folders.scope === 'system') !== 0) return 1;
  const record = DiscoveredLines.read(options.dataDir, RECORD);
  const inUse = new Set(wiredServices(folders.write).map((w) => w.token));
  let earlier: Map<string, MonitorSummary>;
  try {
    earlier = await recordedMonitors(record, plans.map(({ timer }) => timerKey(folders, timer)), inUse, options.api!);
  } catch (error) {
    console.error(`cronbeat: cannot list the monitors to find those an earlier discover made: ${describeError(error)}`);
    return 1;
  }
  const made: Array<{ row: TimerRow; monitor: MonitorSummary; reused: 'same' | 'followed' | null }> = [];
  let failure: string | null = null;
  for (const row of plans) {
    const key = timerKey(folders, row.timer);
    const reused = earlier.get(key);
    if (reused) {
      // The key names the timer, not its schedule: one edited while it had no drop-in (after
      // --undo) is followed, or its monitor would await runs that no longer come.
      const changed = reused.schedule !== row.schedule || reused.timezone !== options.machineZone;
      try {
        let monitor = reused;
        if (changed) {
          const edited = await options.api!.editMonitor(reused.id, { schedule: row.schedule!, timezone: options.machineZone, duration: row.grace! });
          monitor = { ...reused, schedule: edited.schedule, timezone: edited.timezone, duration: edited.duration };
        }
        failure = monitorToWriteProblem(monitor);
        if (failure) break;
        made.push({ row, monitor, reused: changed ? 'followed' : 'same' });
      } catch (error) {
        failure = describeError(error);
        break;
      }
      continue;
    }
    const tags = [timerTag(row.timer.name), ...(options.server ? [serverTag(options.server)!] : [])];
    const name = folders.scope === 'user' ? `${row.timer.name} (user)` : row.timer.name;
    try {
      const monitor = await options.api!.createMonitor({ name, schedule: row.schedule!, timezone: options.machineZone, duration: row.grace!, tags });
      // Its token goes into the drop-in's ExecStartPre= line, its id into its comment: they must be a token and an id, whoever answered.
      failure = monitorToWriteProblem(monitor);
      if (failure) break;
      made.push({ row, monitor, reused: null });
      record.remember(key, monitor.token);
    } catch (error) {
      failure = describeError(error);
      break;
    }
  }
  saveRecord(record);
  const writes = new Writes();
  try {
    for (const { row, monitor } of made) {
      const path = join(dropInFolder(folders, row.timer.service), DROP_IN_NAME);
      writes.write(path, dropInText({ monitorId: monitor.id, timer: row.timer.name, shim: options.shim.shim, token: monitor.token, url: options.url }));
    }
  } catch (error) {
    writes.rollBack();
    console.error(`cronbeat: cannot write a drop-in (${(error as Error).message}); took back the ones written. The monitors are kept, and a later discover takes them again.`);
    return 1;
  }
  for (const { row, monitor, reused } of made) {
    const again = `the monitor an earlier discover made, #${monitor.id}, again`;
    const how = reused === null ? `monitor #${monitor.id}, grace ${monitor.duration} min` : reused === 'same' ? again : `${again}, now with its schedule ${monitor.schedule.split('\n').join(' | ')} and grace ${monitor.duration} min`;
    console.log(`${row.timer.name}: ${how}; ${row.timer.service} pulses through ${join(dropInFolder(folders, row.timer.service), DROP_IN_NAME)}.`);
  }
  if (failure) {
    console.error(`cronbeat: stopped after ${made.length} of ${plans.length} monitors: ${failure}. Run discover again to continue.`);
    return 1;
  }
  return reload(options);
}

/** The monitor an earlier discover made for each key, when it still exists and no drop-in uses it now. */
async function recordedMonitors(record: DiscoveredLines, keys: string[], inUse: Set<string>, api: ApiClient): Promise<Map<string, MonitorSummary>> {
  const found = new Map<string, MonitorSummary>();
  const wanted = keys.map((key) => ({ key, tokens: record.tokensOf(key).filter((token) => !inUse.has(token)) }));
  if (wanted.every(({ tokens }) => tokens.length === 0)) return found;
  const byToken = new Map((await api.listMonitors()).map((monitor) => [monitor.token, monitor]));
  record.forget(new Set(wanted.flatMap(({ tokens }) => tokens).filter((token) => !byToken.has(token))));
  for (const { key, tokens } of wanted) {
    const token = tokens.find((t) => byToken.has(t));
    if (token !== undefined) found.set(key, byToken.get(token)!);
  }
  return found;
}

/** Removes every drop-in discover wrote in the folder (the monitors stay). */
export function undoTimers(options: Pick<TimersOptions, 'folders' | 'root' | 'dryRun' | 'reload' | 'dataDir'>): number {
  const { folders } = options;
  const wired: WiredService[] = wiredServices(folders.write);
  if (wired.length === 0) {
    console.log(`No service in ${folders.write} has a drop-in of cronbeat: nothing to undo.`);
    return 0;
  }
  for (const { path } of wired) console.log(`  ${path}`);
  if (options.dryRun) {
    console.log(`Would remove ${wired.length} drop-in${wired.length === 1 ? '' : 's'}.`);
    return 0;
  }
  checkWritable(folders.write);
  // Before the tokens leave the units: a later discover of the same timers takes their monitors again.
  const record = DiscoveredLines.read(options.dataDir, RECORD);
  const timers = findTimers(folders);
  for (const { service, token, timer: wiredFor } of wired) {
    for (const timer of timers) if (timer.service === service && (wiredFor ?? timer.name) === timer.name) record.remember(timerKey(folders, timer), token);
  }
  saveRecord(record);
  for (const { path } of wired) removeDropIn(path);
  console.log(`Removed ${wired.length} drop-in${wired.length === 1 ? '' : 's'}. Their monitors are kept: delete them in the dashboard, or they fail at their next missed run.`);
  return reload(options);
}
