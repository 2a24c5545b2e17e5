import { expectedRunAfter, runAnsweredBy, type MissedDeadline, type MonitorTiming, type ScheduleSpec } from './dueTime';
import type { AlertReason, MonitorReason } from '../alerts/alert';
import { toApiTimestamp } from '../time/apiTimestamps';

/*
 * Alert after N failures (Cronitor's "failure tolerance", healthchecks' repeated-failure ask): a
 * monitor turns failed at its first failed or missed run, as the dashboard shows the truth, but it
 * alerts only at the N-th in a row. Until then its next runs are still watched, so another missed
 * run counts too; a success ends the streak, and its recovery is told only when the failure was.
 */

/** How many failures in a row a monitor alerts after when nobody said: the first one. */
export const DEFAULT_ALERT_AFTER = 1;
/** The most failures in a row a monitor may wait for. */
export const MAX_ALERT_AFTER = 100;

/** A monitor's failures in a row, as it keeps them. */
export interface FailureStreak {
  /** Its setting: the failure in a row that alerts. */
  alertAfter: number;
  /** When each failed run was due (the failure's own time for a run off schedule), oldest first; at most MAX_ALERT_AFTER. */
  failures: number[];
  /** Whether this streak was alerted already (or folded into a flapping alert): nothing more is raised until a success. */
  alertSent: boolean;
}

/** The streak after a failure of the run due at `runAt`, and whether that failure raises the alert. */
export function addFailure(streak: FailureStreak, runAt: number): { streak: FailureStreak; alert: boolean } {
  // A run already counted (missed, then reported late) is one failure, not two.
  const again = streak.failures.length > 0 && streak.failures[streak.failures.length - 1] === runAt;
  const failures = again ? streak.failures : [...streak.failures, runAt].slice(-MAX_ALERT_AFTER);
  const alert = !streak.alertSent && failures.length >= streak.alertAfter;
  return { streak: { ...streak, failures, alertSent: streak.alertSent || alert }, alert };
}

/**
 * The timing of a monitor that missed `missed` and keeps counting: it waits for the first run
 * whose deadline is after that one (so each run is counted once), and a run in progress is given
 * up on (a stuck or never-finished run counts once; its end, if it comes, is still its history).
 */
export function timingAfterCountedMiss<T extends MonitorTiming>(timing: T, missed: MissedDeadline): T {
  const from = Math.max(missed.deadline - timing.durationMinutes * 60_000, missed.kind === 'no_pulse' ? missed.runAt : -Infinity);
  return {
    ...timing,
    isAlerted: true,
    alertSent: false,
    expectedRunAt: expectedRunAfter(timing, from),
    runningSince: null,
    graceFrom: null,
  };
}

/**
 * The run a missed deadline counts as: the run that did not come, or the run a stuck one was
 * started for (the run its start answers, as its late end would: one run, counted once).
 */
export function missedRunAt(missed: MissedDeadline, spec: ScheduleSpec): number {
  return missed.kind === 'stuck' ? (runAnsweredBy(spec, missed.startedAt) ?? missed.startedAt) : missed.runAt;
}

/** Stored failures (JSON of a list of ms), tolerant of a value written by hand: [] for anything else. */
export function failuresOf(json: string | null | undefined): number[] {
  if (!json || json === '[]') return [];
  try {
    const list: unknown = JSON.parse(json);
    return Array.isArray(list) ? list.filter((t): t is number => typeof t === 'number' && Number.isFinite(t)) : [];
  } catch {
    return [];
  }
}

/** What the alert of a streak says: the failure's own reason when it is the first, else "went wrong N times in a row" and the last one's. */
export function streakReason(last: MonitorReason, failures: number[]): AlertReason {
  if (failures.length <= 1) return last;
  return { kind: 'failed_times', times: failures.length, runs: failures.map((t) => toApiTimestamp(t)), last };
}
