import { kindOf, longestCronGapMinutes, nextRunAfter, previousRunBefore, runningTimerRunAfter } from '../schedules';
import { minutesAfter, runAnsweredBy, type MissedDeadline, type ScheduleSpec } from '../monitors/dueTime';

/*
 * Maintenance windows: planned work during which the monitors a window covers raise nothing.
 * A run due inside a window is not expected; when the window ends, a covered monitor waits for
 * its next run (the first at or after the end), so the end brings no alarm and no recovery.
 * A monitor failed before the window stays failed. All times are UTC milliseconds.
 */

/** The longest a recurring window's occurrence may last: a week (longer would cover every run of a weekly schedule). */
export const MAX_WINDOW_MINUTES = 7 * 24 * 60;
/** The longest a one-off window may last: 31 days (longer is a pause, not maintenance). */
export const MAX_ONE_OFF_MS = 31 * 24 * 3_600_000;

/** How far ahead a recurring window's schedule is read for the longest gap between its openings: every month twice over. */
const GAP_LOOKAHEAD_DAYS = 3 * 366;

/**
 * Whether a recurring window's schedule can open it: cron or a calendar event, at each run. A
 * period (`@every`) has no moment of its own to open at.
 */
export function opensWindows(schedule: string): boolean {
  return kindOf(schedule) !== 'period';
}

/**
 * The longest time in minutes between two openings of a window with this schedule, when an
 * occurrence of `durationMinutes` lasts at least that long: each occurrence would last until the
 * next one opened, so the window would never end and the monitors it covers never alert. Null
 * when the window closes between some two openings (on wall clocks, from `now` for three years;
 * for a calendar event, among its first CALENDAR_GAP_RUNS openings).
 */
export function neverEndingGap(schedule: string, durationMinutes: number, now: number): number | null {
  if (kindOf(schedule) === 'calendar') return calendarNeverEndingGap(schedule, durationMinutes, now);
  const gap = longestCronGapMinutes(schedule, now, GAP_LOOKAHEAD_DAYS);
  return durationMinutes >= gap ? gap : null;
}

/** Most openings of a calendar event read for a gap longer than its window lasts: a week of one every five minutes. */
const CALENDAR_GAP_RUNS = 2_016;

/**
 * neverEndingGap for a calendar event, whose gaps no date arithmetic gives: its openings one after
 * the other, stopping at the first gap longer than the window, or when it opens no more.
 */
function calendarNeverEndingGap(schedule: string, durationMinutes: number, now: number): number | null {
  const horizon = now + GAP_LOOKAHEAD_DAYS * 86_400_000;
  // In milliseconds: a calendar event may run seconds apart, which whole minutes would round to nothing.
  let longest = 0;
  let previous = nextRunAfter(schedule, 'UTC', now);
  for (let read = 1; previous !== null && read < CALENDAR_GAP_RUNS; read++) {
    const next = nextRunAfter(schedule, 'UTC', previous);
    if (next === null) return null;
    longest = Math.max(longest, next - previous);
    if (longest > durationMinutes * 60_000) return null;
    if (next > horizon) break;
    previous = next;
  }
  return previous === null ? null : Math.ceil(longest / 60_000);
}

/** A window as the rules read it: one-off (`startsAt`, `endsAt`) or recurring (`schedule`, `timezone`, `durationMinutes`). */
export interface MaintenanceWindow {
  id: number;
  startsAt: number | null;
  endsAt: number | null;
  schedule: string | null;
  timezone: string | null;
  durationMinutes: number | null;
  /** The monitors it covers by id; with `tags`, a monitor either names is covered; both empty: every monitor. */
  monitorIds: readonly number[];
  tags: readonly string[];
}

/** What the rules need of a monitor. */
export interface CoveredMonitor {
  id: number;
  tags: readonly string[];
}

/** One occurrence of a window: from `start` (inclusive) to `end` (exclusive). */
export interface WindowSpan {
  start: number;
  end: number;
}

/** The latest start of a recurring window's schedule at or before `at`, null when none. The one place a window's schedule is read. */
export function latestStartAtOrBefore(schedule: string, timezone: string, at: number): number | null {
  return previousRunBefore(schedule, timezone, at + 1);
}

/** The first start of a recurring window's schedule after `at`, null when none (the other half of latestStartAtOrBefore). */
function firstStartAfter(schedule: string, timezone: string, at: number): number | null {
  // As a timer running through the night opens it: never at a second copy of a fall-back night's repeated hour.
  return runningTimerRunAfter(schedule, timezone, at);
}

/** When the next occurrence of `window` after `now` starts; null when none is to come. */
export function nextStart(window: Omit<MaintenanceWindow, 'id'>, now: number): number | null {
  if (window.startsAt !== null) return window.startsAt > now ? window.startsAt : null;
  if (window.schedule === null || window.timezone === null) return null;
  return firstStartAfter(window.schedule, window.timezone, now);
}

/** Whether `window` covers `monitor`: named by id or by one of its tags, or every monitor when it names none. */
export function coversMonitor(window: Pick<MaintenanceWindow, 'monitorIds' | 'tags'>, monitor: CoveredMonitor): boolean {
  if (window.monitorIds.length === 0 && window.tags.length === 0) return true;
  return window.monitorIds.includes(monitor.id) || window.tags.some((tag) => monitor.tags.includes(tag));
}

/**
 * The occurrence of `window` that is latest to start at or before `at`, or null when none has
 * started. Occurrences of a recurring window all last the same, so the latest start also ends last.
 */
function latestSpan(window: MaintenanceWindow, at: number): WindowSpan | null {
  if (window.startsAt !== null && window.endsAt !== null) {
    return window.startsAt <= at ? { start: window.startsAt, end: window.endsAt } : null;
  }
  if (window.schedule === null || window.timezone === null || window.durationMinutes === null) return null;
  const start = latestStartAtOrBefore(window.schedule, window.timezone, at);
  return start === null ? null : { start, end: minutesAfter(start, window.durationMinutes) };
}

/** The occurrence of `window` under way at `at`, or null. */
export function spanAt(window: MaintenanceWindow, at: number): WindowSpan | null {
  const span = latestSpan(window, at);
  return span !== null && at < span.end ? span : null;
}

/** When the occurrence of `window` under way at `at` ends; null when it is not under way. */
export function windowEnd(window: MaintenanceWindow, at: number): number | null {
  return spanAt(window, at)?.end ?? null;
}

/**
 * The window covering `monitor` that is under way at `now`, with the end of its occurrence (the
 * latest end when several are); null when the monitor is not in maintenance.
 */
export function activeWindowAt(
  windows: readonly MaintenanceWindow[],
  monitor: CoveredMonitor,
  now: number,
): { window: MaintenanceWindow; end: number } | null {
  let found: { window: MaintenanceWindow; end: number } | null = null;
  for (const window of windows) {
    if (!coversMonitor(window, monitor)) continue;
    const end = windowEnd(window, now);
    if (end !== null && (found === null || end > found.end)) found = { window, end };
  }
  return found;
}

/**
 * Whether `window` covers what goes by `tag` beyond monitors (`server:IDENTIFIER`, the tag a
 * server's jobs' monitors get from `--server`; `certificate:HOSTNAME`, a host on any port): one
 * naming nothing covers everything; monitor ids never do.
 */
function coversTagged(window: MaintenanceWindow, tag: string): boolean {
  if (window.monitorIds.length === 0 && window.tags.length === 0) return true;
  return window.tags.includes(tag);
}

/** Whether `window` covers the crontab watcher of the server with `identifier`. */
export const coversServer = (window: MaintenanceWindow, identifier: string): boolean => coversTagged(window, `server:${identifier}`);

/** The latest end of the windows covering `tag` that are under way at `now`; null when none is. */
function taggedWindowEnd(windows: readonly MaintenanceWindow[], tag: string, now: number): number | null {
  let end: number | null = null;
  for (const window of windows) {
    if (!coversTagged(window, tag)) continue;
    const under = windowEnd(window, now);
    if (under !== null && (end === null || under > end)) end = under;
  }
  return end;
}

/** The latest end of the windows covering the server with `identifier` that are under way at `now`; null when none is. */
export const serverWindowEnd = (windows: readonly MaintenanceWindow[], identifier: string, now: number): number | null =>
  taggedWindowEnd(windows, `server:${identifier}`, now);

/** The latest end of the windows covering the certificates of `hostname` that are under way at `now`; null when none is. */
export const certificateWindowEnd = (windows: readonly MaintenanceWindow[], hostname: string, now: number): number | null =>
  taggedWindowEnd(windows, `certificate:${hostname}`, now);

/**
 * The occurrences of `window` that overlap [from, to), oldest first, one at a time, for a caller
 * that yields to other work between them: a window that opens every two minutes has 22,320
 * occurrences in a month, each found by a search of its schedule (about a tenth of a
 * millisecond), seconds in all.
 */
export function* eachSpanBetween(window: MaintenanceWindow, from: number, to: number): Generator<WindowSpan, void, undefined> {
  const first = latestSpan(window, from);
  if (first !== null && first.end > from) yield first;
  if (window.schedule === null || window.timezone === null || window.durationMinutes === null) {
    // A one-off window that starts within the period.
    if (first === null && window.startsAt !== null && window.endsAt !== null && window.startsAt < to) yield { start: window.startsAt, end: window.endsAt };
    return;
  }
  for (let start = firstStartAfter(window.schedule, window.timezone, from); start !== null && start < to; start = firstStartAfter(window.schedule, window.timezone, start)) {
    yield { start, end: minutesAfter(start, window.durationMinutes) };
  }
}

/** The latest end of an occurrence of `window` that overlaps [from, to]; null when none does. */
function overlapEnd(window: MaintenanceWindow, from: number, to: number): number | null {
  const span = latestSpan(window, to);
  return span !== null && span.end > from ? span.end : null;
}

/**
 * The moments a pulse is judged by for maintenance: when it came and when it counts for; but a
 * pulse a little early for its run (a server's clock ahead, runAnsweredBy) is that run's, judged
 * by the run's own time, so the first run after a window, reported a moment before its end, counts.
 */
export function pulseMoments(spec: ScheduleSpec, arrivedAt: number, countsFor: number): number[] {
  const run = runAnsweredBy(spec, countsFor);
  return run !== null && run > countsFor ? [run] : [arrivedAt, countsFor];
}

/**
 * Whether a window under way holds a pulse of `kind` (it lands in the run history and changes
 * nothing else): every pulse but a success that ends a failure not alerted yet (still counting
 * towards its alert after N), whose quiet recovery raises nothing and ends the streak, so runs
 * that came in the window are never counted as failures in a row.
 */
export function windowHoldsPulse(monitor: { isAlerted: boolean; alertSent?: boolean }, kind: 'start' | 'success' | 'fail'): boolean {
  return !(kind === 'success' && monitor.isAlerted && monitor.alertSent === false);
}

/** A run a monitor waited for: when it was due (or started), and when it was late. */
export interface WaitedRun {
  due: number;
  deadline: number;
}

/**
 * The stretch of time a missed deadline is about, which a window meeting excuses: a run that did
 * not come, from its due time to its deadline (its grace); a run in progress, from its start to
 * when it was late (stuck at its max run time, or the next run's deadline): a window that met it
 * may have stopped it (a reboot), so it is forgotten, as the docs say.
 */
export function waitedRunOf(missed: MissedDeadline, graceMinutes: number): WaitedRun {
  if (missed.kind === 'no_pulse') return { due: missed.runAt, deadline: minutesAfter(missed.runAt, graceMinutes) };
  const late = missed.kind === 'stuck' ? minutesAfter(missed.startedAt, missed.maxRuntimeMinutes) : minutesAfter(missed.runAt, graceMinutes);
  return { due: missed.startedAt, deadline: late };
}

/**
 * The end of the maintenance that excuses a missed `run` (the latest, when several do): a window
 * among `windows` (those covering the monitor) overlaps the time from the run's due time to its
 * deadline. Null when none does: the miss is a true one.
 */
export function excusingWindowEnd(run: WaitedRun, windows: readonly MaintenanceWindow[]): number | null {
  let latest: number | null = null;
  for (const window of windows) {
    const end = overlapEnd(window, run.due, run.deadline);
    if (end !== null && (latest === null || end > latest)) latest = end;
  }
  return latest;
}

/**
 * What a monitor whose deadline for `run` passed does: null, it fails; otherwise the moment it is
 * planned again from (the maintenance's end), waiting for its next run at or after it. Only a
 * window that met the run excuses it, under way or ended: a run whose deadline passed before any
 * window opened (Cronbeat was not running then, and notices it during one) is a true miss.
 */
export function maintenanceReplanFrom(windows: readonly MaintenanceWindow[], monitor: CoveredMonitor, run: WaitedRun): number | null {
  const covering = windows.filter((window) => coversMonitor(window, monitor));
  if (covering.length === 0) return null;
  return excusingWindowEnd(run, covering);
}
