import { kindOf, nextRunAfter, previousRunBefore, runningTimerRunAfter, runningTimerRunAtOrAfter, shortestGapMinutes } from '../schedules';

const MINUTE = 60_000;

/** Most a pulse may come before a run and still count for it (clocks of servers drift). */
export const MAX_EARLY_PULSE_MS = MINUTE;

/** What a monitor's schedule needs to answer "which run" and "when late". */
export interface ScheduleSpec {
  schedule: string;
  timezone: string;
}

/** The timing part of a monitor's state. All times are UTC milliseconds. */
export interface MonitorTiming extends ScheduleSpec {
  /** Minutes a pulse may take after a run (and a started run may take to end). */
  durationMinutes: number;
  /** The run the monitor waits for a pulse about; null when the schedule has no next run. */
  expectedRunAt: number | null;
  /** When the run in progress started (a /start not yet ended); null when none. */
  runningSince: number | null;
  /**
   * Minutes a started run may take before it is stuck; null or absent: no limit of its own (it
   * is then judged when the next run is due, see nextDeadline). The grace never limits a run.
   */
  maxRuntimeMinutes?: number | null;
  isAlerted: boolean;
  /**
   * Whether a failure (isAlerted) was alerted: until it is (fewer failures in a row than the monitor
   * alerts after, agent/domain/monitors/failureStreak.ts) its runs are still watched. Absent: it was.
   */
  alertSent?: boolean;
  /**
   * When Cronbeat caught up (it resumed, or a late pulse came) with this monitor's deadline
   * already passed: it then gets a fresh grace of its duration from that moment (withCatchUpGrace).
   * Null otherwise.
   */
  graceFrom: number | null;
}

/**
 * Which deadline a monitor missed: a scheduled run's, or a started run's. `resumedAt` is set
 * when the deadline was moved to a grace after Cronbeat resumed.
 */
export type MissedDeadline = (
  | { kind: 'no_pulse'; runAt: number }
  | { kind: 'not_finished'; startedAt: number; runAt: number }
  | { kind: 'stuck'; startedAt: number; maxRuntimeMinutes: number }
) & { deadline: number; resumedAt?: number };

/**
 * How early a pulse may arrive and still count for the run at `runAt`: one minute, or half
 * the gap since the run before when that is shorter (so an every-minute job's pulse is never
 * credited to the wrong run). Zero when the run before cannot be found.
 */
function earlyToleranceMs(spec: ScheduleSpec, runAt: number): number {
  const previous = previousRunBefore(spec.schedule, spec.timezone, runAt);
  if (previous === null) return 0;
  return Math.max(0, Math.min(MAX_EARLY_PULSE_MS, Math.floor((runAt - previous) / 2)));
}

/**
 * The run a pulse received at `pulseAt` answers: the coming run when the pulse is at most
 * its early tolerance before it, otherwise the latest run at or before the pulse. Null when
 * the schedule has neither (no run before the pulse and none coming soon).
 */
export function runAnsweredBy(spec: ScheduleSpec, pulseAt: number): number | null {
  const coming = nextRunAfter(spec.schedule, spec.timezone, pulseAt);
  if (coming !== null && coming - pulseAt <= earlyToleranceMs(spec, coming)) return coming;
  return previousRunBefore(spec.schedule, spec.timezone, pulseAt + 1);
}

/**
 * When the run that started at `startedAt` was due, for an alert to say: the run it answers
 * (runAnsweredBy), if it started within `graceMinutes` of it. Null for a run off schedule (a
 * manual run hours after the last due time) or a schedule with no run near.
 */
export function dueTimeOfRun(spec: ScheduleSpec, graceMinutes: number, startedAt: number): number | null {
  const due = runAnsweredBy(spec, startedAt);
  if (due === null || startedAt > minutesAfter(due, graceMinutes)) return null;
  return due;
}

/**
 * The run expected after the one answered at `answeredRunAt` (for a new monitor: after its creation
 * time), as the job's timer, running all along, makes it. Null when the schedule has no run after it.
 */
export function expectedRunAfter(spec: ScheduleSpec, answeredRunAt: number): number | null {
  return runningTimerRunAfter(spec.schedule, spec.timezone, answeredRunAt);
}

/** The first run at or after `at` (the end of maintenance): a run exactly then is the one awaited. */
export function expectedRunAtOrAfter(spec: ScheduleSpec, at: number): number | null {
  return runningTimerRunAtOrAfter(spec.schedule, spec.timezone, at);
}

/** The most grace a monitor gets by default: an hour, however rarely its job runs. */
export const DEFAULT_GRACE_CAP_MINUTES = 60;
/** Days looked at for two days in a row that run (a gap across midnight): a year and a bit, so a yearly pattern shows. */
export const PERIOD_SAMPLE_DAYS = 400;

/**
 * The grace a monitor gets when none is given (`crontab discover`, a job's line): its schedule's
 * own period, the shortest gap between consecutive runs (within a day, or across midnight on two
 * days in a row within PERIOD_SAMPLE_DAYS of `from`), capped at DEFAULT_GRACE_CAP_MINUTES, and at
 * least a minute. So a five-minute job is late after 5 minutes, a daily one after 60, and one
 * whose runs are years apart (29 February) after 60. Computed from the schedule's fields by date
 * arithmetic (cronDays.ts), never by walking its runs: a rare schedule costs what a common one does.
 */
export function defaultGraceMinutes(schedule: string, from: number): number {
  return Math.max(1, Math.min(DEFAULT_GRACE_CAP_MINUTES, shortestGapMinutes(schedule, from, PERIOD_SAMPLE_DAYS)));
}

/** The moment `minutes` after `from`. */
export function minutesAfter(from: number, minutes: number): number {
  return from + minutes * MINUTE;
}

/**
 * The deadline the monitor misses, but never before the end of a grace. Two limits: the grace
 * is how late a run may report its start (or its end, when it sends no start); the max run time
 * is how long a started run may take. A run in progress with a max run time is stuck at its
 * start plus that, and only then (runLimit): a run allowed 15 minutes on a 10-minute schedule
 * keeps the next run from starting, which is no miss. Without a max run time, the next run's
 * deadline passing with the run still open is a start that never finished (expectedRunLimit).
 * Null when the monitor's failure was alerted (it is not monitored until a pulse comes) or it
 * waits for nothing; a failure still counting towards its alert keeps its deadlines.
 */
export function nextDeadline(timing: MonitorTiming): MissedDeadline | null {
  if (timing.isAlerted && timing.alertSent !== false) return null;
  const first = runLimit(timing) ?? expectedRunLimit(timing);
  if (first === null) return null;
  if (timing.graceFrom === null) return first;
  const graceEnd = minutesAfter(timing.graceFrom, timing.durationMinutes);
  return graceEnd > first.deadline ? { ...first, deadline: graceEnd, resumedAt: timing.graceFrom } : first;
}

/** A started run's own limit: its start plus the max run time; null without a run or a limit. */
export function runLimit(timing: MonitorTiming): MissedDeadline | null {
  const max = timing.maxRuntimeMinutes ?? null;
  if (timing.runningSince === null || max === null) return null;
  return { kind: 'stuck', startedAt: timing.runningSince, maxRuntimeMinutes: max, deadline: minutesAfter(timing.runningSince, max) };
}

/** The expected run's deadline (its time plus the grace); a run still open then never finished. Null when none is expected. */
export function expectedRunLimit(timing: MonitorTiming): MissedDeadline | null {
  if (timing.expectedRunAt === null) return null;
  const deadline = minutesAfter(timing.expectedRunAt, timing.durationMinutes);
  if (timing.runningSince === null) return { kind: 'no_pulse', runAt: timing.expectedRunAt, deadline };
  return { kind: 'not_finished', startedAt: timing.runningSince, runAt: timing.expectedRunAt, deadline };
}

/**
 * The monitor with a fresh grace of its duration from `now` when its deadline, computed from
 * information that arrived late, is already past at `now`: Cronbeat resumed (it started, the
 * machine woke, the process was frozen) or a pulse came late (replayed from a spool, or read
 * from a socket queue after a freeze). A deadline nobody could still meet is not a miss yet.
 * Unchanged when the deadline is still ahead, or when there is none (failed, nothing expected).
 *
 * It cannot hide a true alarm for long: a grace lasts one duration from `now`, after which the
 * monitor fails like any other unless a pulse came, and only new information renews it: a late
 * pulse (each one a run that really happened; a spool replays each of its pulses once, then it
 * is empty) or an outage the loop saw, which outageGraces bounds.
 */
export function withCatchUpGrace<T extends MonitorTiming>(timing: T, now: number): T {
  const deadline = dueAt(timing);
  return deadline !== null && deadline < now ? { ...timing, graceFrom: now } : timing;
}

/** A stretch of time Cronbeat did not run, ending at `to`; `from` null when it is not known (a start). */
export interface Outage {
  from: number | null;
  to: number;
}

/** An outage this long is a sleep or a clock jump rather than a freeze of a running process. */
export const LONG_OUTAGE_MS = 60_000;

/**
 * Whether an outage gives a monitor whose deadline is `dueAt` a catch-up grace: its deadline
 * passed while Cronbeat was not running (or, at a start, at any time before). False when the
 * deadline is still ahead, when it passed before the outage began (Cronbeat was running and saw
 * the miss), and, after a short outage (a freeze under LONG_OUTAGE_MS), when the deadline is
 * already a grace's end: so a process that keeps stalling for seconds (sustained event-loop
 * lag) gives each deadline at most one grace, never a new one at every stall.
 */
export function outageGraces(dueAt: number, graceFrom: number | null, outage: Outage): boolean {
  if (dueAt >= outage.to) return false;
  if (outage.from === null) return true;
  if (dueAt < outage.from) return false;
  return graceFrom === null || outage.to - outage.from >= LONG_OUTAGE_MS;
}

/** The stored `due_at`: when the monitor fails unless a pulse comes. Null as nextDeadline. */
export function dueAt(timing: MonitorTiming): number | null {
  return nextDeadline(timing)?.deadline ?? null;
}

/**
 * What to store of a monitor whose timing was just worked out at `now` from news (a pulse, the end
 * of a pause, of maintenance or of an outage): its `grace_from` and `due_at`, with the catch-up
 * grace a deadline already past gets (withCatchUpGrace).
 */
export function dueTimeAt(timing: MonitorTiming, now: number): { graceFrom: number | null; dueAt: number | null } {
  const caughtUp = withCatchUpGrace(timing, now);
  return { graceFrom: caughtUp.graceFrom, dueAt: dueAt(caughtUp) };
}

/**
 * The stored grace and due time of a monitor planned again by rules alone (maintenance excused
 * the run it waited for), which brings no news: a catch-up grace in course (from `graceFrom`,
 * when Cronbeat resumed) stays the one it had, and none is given anew. So a run missed after
 * Cronbeat resumed is told one grace after the resume and names that moment, and a run whose
 * deadline passed while Cronbeat ran (a run in progress when a window met it was forgotten, and
 * the next one did not come) is told at once, without "resuming" in its words.
 */
export function dueTimeKeepingGrace(timing: MonitorTiming, graceFrom: number | null): { graceFrom: number | null; dueAt: number | null } {
  return { graceFrom, dueAt: dueAt({ ...timing, graceFrom }) };
}

/**
 * When the monitor loop's next step has work, given the earliest due time of each thing it
 * handles (a monitor's due_at, a quiet watcher's alert, a reminder; null for none): just after the
 * earliest, since a monitor fails once its due time has passed, not at it. Null when nothing is due.
 */
export function nextStepAt(dueTimes: ReadonlyArray<number | null>): number | null {
  let earliest: number | null = null;
  for (const time of dueTimes) if (time !== null && (earliest === null || time < earliest)) earliest = time;
  return earliest === null ? null : earliest + 1;
}

/**
 * What a monitor created at `createdAt` waits for: the first run after its creation, and that
 * run's deadline. Both null when the schedule has no run after it.
 */
export function newMonitorTiming(
  spec: ScheduleSpec & { durationMinutes: number },
  createdAt: number,
): { expectedRunAt: number | null; dueAt: number | null } {
  const expectedRunAt = expectedRunAfter(spec, createdAt);
  const timing = { ...spec, expectedRunAt, runningSince: null, isAlerted: false, graceFrom: null };
  return { expectedRunAt, dueAt: dueAt(timing) };
}

/*
 * Pause and snooze. A paused monitor waits for nothing: it has no deadline, so it
 * never fails. A snooze is a pause with an end: at `pausedUntil` the monitor is planned afresh
 * from that moment, as a new monitor would be. The stored due_at of a snoozed monitor is the
 * snooze's end, so the loop wakes then (see pausedDueAt).
 */

/** Whether and until when a monitor is paused. Times are UTC milliseconds. */
export interface PauseState {
  /** When it was paused; null when it is not paused. */
  pausedAt: number | null;
  /** When a snooze ends by itself; null for a pause that lasts until resumed (or no pause). */
  pausedUntil: number | null;
}

/** Whether the monitor is paused at `now`: paused, and its snooze (if any) not over yet. */
export function isPausedAt(pause: PauseState, now: number): boolean {
  return pause.pausedAt !== null && (pause.pausedUntil === null || pause.pausedUntil > now);
}

/**
 * The stored due_at of a paused monitor: the moment its snooze ends, when the loop must wake
 * to plan it again. Null for a pause until resumed (nothing is due) and for a monitor not paused.
 */
export function pausedDueAt(pause: PauseState): number | null {
  return pause.pausedAt === null ? null : pause.pausedUntil;
}

/**
 * The moment a pause ends: the snooze's end when it has passed by `now`, else `now` for a
 * resume by hand. Planning from the snooze's end (not from when the loop noticed) keeps a
 * late wake-up from shifting the schedule.
 */
export function pauseEndsAt(pause: PauseState, now: number): number {
  return pause.pausedUntil !== null && pause.pausedUntil <= now ? pause.pausedUntil : now;
}

/**
 * Whether an edit moves a monitor's runs (then replannedTiming): a new schedule, or zone of one with
 * clock times. A new grace does not: the run waited for stays, by the new grace (late by it: failed).
 */
export function editMovesRuns(before: ScheduleSpec, after: ScheduleSpec): boolean {
  return after.schedule !== before.schedule || (after.timezone !== before.timezone && kindOf(after.schedule) !== 'period');
}

/**
 * A monitor re-planned at `from` (an edit that moves its runs, editMovesRuns, or the end of a
 * pause): it waits for the first run after that moment, so a run the schedule says was missed
 * before it never fails it. A failed monitor stays failed (no deadline until a success pulse);
 * a run in progress keeps its start, and a catch-up grace in course is kept (dropping it would
 * fail at once a run whose deadline passed while Cronbeat could not see). Null expectedRunAt
 * when the schedule has no run after it.
 */
export function replannedTiming<T extends MonitorTiming>(timing: T, from: number): T {
  return { ...timing, expectedRunAt: expectedRunAfter(timing, from) };
}
