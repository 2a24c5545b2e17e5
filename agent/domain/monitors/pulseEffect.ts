import type { MonitorReason } from '../alerts/alert';
import { previousRunBefore } from '../schedules';
import { expectedRunAfter, runAnsweredBy, type MonitorTiming } from './dueTime';
import { addFailure, DEFAULT_ALERT_AFTER } from './failureStreak';
import { toApiTimestamp } from '../time/apiTimestamps';

export type PulseKind = 'start' | 'success' | 'fail';

/** A start whose run has not ended (its rid has no end since), other than the run in progress. */
export interface OpenStart {
  at: number;
  rid: string;
}

/** A pulse as the engine sees it. `at` is when it counts (the replayed send time if any). */
export interface PulseInput {
  kind: PulseKind;
  at: number;
  rid: string | null;
  exitCode: number | null;
}

/** What the run history holds besides pulses: the admin's pause and resume. */
export type HistoryKind = PulseKind | 'pause' | 'resume';

/** The part of a monitor a pulse changes. */
export interface PulseState extends MonitorTiming {
  runningRid: string | null;
  lastRunAt: number;
  /** Why it is failed, as data; its words are made from it where they are shown (null when not failed, or failed before reasons were kept as data). */
  alertReasonData: MonitorReason | null;
  /**
   * The event time the monitor's failed-or-fine state rests on: the pulse that failed,
   * recovered or last confirmed it, the last pulse before a missed deadline, a resume. Null: none yet.
   */
  stateSince: number | null;
  /** The failure in a row that alerts (agent/domain/monitors/failureStreak.ts); absent: the first. */
  alertAfter?: number;
  /** When each failed run of the current streak was due, oldest first; absent or [] when fine. */
  failures?: number[];
}

export interface PulseEffect {
  state: PulseState;
  /**
   * 'failed' when this pulse's failure raises the alert (the monitor's N-th in a row), 'recovered' when
   * it ends a failure that was alerted. A first failure of several turns the monitor failed without one.
   */
  transition: 'failed' | 'recovered' | null;
  /** When the start this pulse ends was received; null when it ends none. */
  pairedStartAt: number | null;
}

/** The alert reason of a run that reported its own failure. */
export function reportedFailureReason(exitCode: number | null): MonitorReason {
  return { kind: 'failed', exit_code: exitCode };
}

/**
 * Whether an end pulse with `rid` ends the run in progress: it does when a run is in progress
 * and either side has no rid or the rids match.
 */
function endsRunningRun(state: PulseState, rid: string | null): boolean {
  if (state.runningSince === null) return false;
  return rid === null || state.runningRid === null || rid === state.runningRid;
}

/**
 * Whether a start is another run while the run in progress has not ended (each with its own rid):
 * the older run stays the run in progress, judged at its own deadline (the next run's, or its max
 * run time: dueTime.ts, nextDeadline). Were the
 * newer one to take its place, a job that hangs at every run, each run's start coming before the
 * one before it was due to have ended, would keep its monitor "running" for good and never alert.
 * Runs without rids cannot be told apart: a start then is the run in progress, as always.
 */
function overlapsOpenRun(state: PulseState, pulse: PulseInput): boolean {
  if (state.runningSince === null || settled(state) || pulse.at < state.runningSince) return false;
  return pulse.rid !== null && state.runningRid !== null && pulse.rid !== state.runningRid;
}

/*
 * A success of another run also closes the run in progress when that run started after it: the
 * older run's end was lost (the job was killed with its machine), and a run since has done the work.
 * So does any success once the run in progress was told as stuck: kept, its deadline long past would
 * fail the monitor again at once.
 */
function startedSince(state: PulseState, ridStartedAt: number | null): boolean {
  return state.runningSince !== null && ridStartedAt !== null && ridStartedAt >= state.runningSince;
}

/** Whether the monitor's failure is the run in progress told as stuck (never finished, or past its max run time). */
function isToldRun(state: PulseState): boolean {
  const reason = state.alertReasonData;
  if (state.runningSince === null || (reason?.kind !== 'not_finished' && reason?.kind !== 'stuck')) return false;
  return reason.started_at === toApiTimestamp(state.runningSince);
}

/** Failed and alerted: nothing is watched until a success (a failure still counting keeps its runs watched). */
function settled(state: MonitorTiming): boolean {
  return state.isAlerted && state.alertSent !== false;
}

/** The later of the expected run so far and the one after `answeredRun` (a replayed old pulse never moves it back). */
function advanceExpectedRun(state: PulseState, answeredRun: number | null, pulseAt: number): number | null {
  const next = expectedRunAfter(state, answeredRun ?? pulseAt);
  if (next === null) return state.expectedRunAt;
  if (state.expectedRunAt === null || settled(state)) return next;
  return Math.max(state.expectedRunAt, next);
}

/**
 * What the run after a run that ends at `endAt` is planned from: the run its start answered,
 * unless the next run was due before the end. That run was kept from starting by this one (a
 * second start would have come and been the run in progress), so it is no miss: the first run
 * after the end is awaited (docs/monitoring.md, "Started runs"). An end paired by its rid alone
 * (`ownRun` false: its start is not the run in progress, as a start a maintenance window held) is
 * read so only beside no run in progress, and never to skip a run the monitor still awaits
 * (runs that overlap, each with its rid: a later one that has not come is still a miss).
 */
function plannedFromEnd(state: PulseState, answered: number | null, endAt: number, ownRun: boolean): number | null {
  if (answered === null) return answered;
  const next = expectedRunAfter(state, answered);
  if (next === null || next >= endAt) return answered;
  const awaitsLater = !settled(state) && state.expectedRunAt !== null && next < state.expectedRunAt;
  if (!ownRun && (state.runningSince !== null || awaitsLater)) return answered;
  // The last run due before the end, so the one awaited is the timer's next after it (a search
  // from the end itself could meet the second copy of an hour the clocks repeat).
  return previousRunBefore(state.schedule, state.timezone, endAt) ?? endAt;
}

/**
 * Whether a pulse counting for `at` is older than the event the monitor's state rests on
 * (a success sent before the failure it would recover, replayed late): it then never changes
 * that state, though it still lands in the run history. False when the state rests on nothing.
 */
export function isStalePulse(state: Pick<PulseState, 'stateSince'>, at: number): boolean {
  return state.stateSince !== null && at < state.stateSince;
}

/**
 * What a pulse does to a monitor. A start answers its run and opens a run in progress; a
 * success or failure answers its run (the run of its start when it ends one) and closes the
 * run in progress. A success recovers a failed monitor; a failure fails a monitor that is not
 * failed yet, and gives one that is its own reason. A start leaves a failed monitor failed (only a success recovers it). An end
 * pulse older than the state (isStalePulse) leaves failed or fine as it is. `ridStartedAt`: when
 * the start with the end pulse's rid came, when there was one; an end that is not the run in
 * progress's (overlapping runs) answers its own start's run, so each run is counted once.
 */
export function applyPulse(state: PulseState, pulse: PulseInput, ridStartedAt: number | null = null, openStart: OpenStart | null = null): PulseEffect {
  const lastRunAt = Math.max(state.lastRunAt, pulse.at);
  if (pulse.kind === 'start') {
    const answered = runAnsweredBy(state, pulse.at);
    const keepsOlder = overlapsOpenRun(state, pulse);
    const next: PulseState = {
      ...state,
      // An overlapping start leaves the expected run where the older run's deadline is: its own run
      // is answered once it ends, or once the older run ends and hands it the run in progress.
      expectedRunAt: settled(state) || keepsOlder ? state.expectedRunAt : advanceExpectedRun(state, answered, pulse.at),
      runningSince: keepsOlder ? state.runningSince : pulse.at,
      runningRid: keepsOlder ? state.runningRid : pulse.rid,
      graceFrom: null,
      lastRunAt,
    };
    return { state: next, transition: null, pairedStartAt: null };
  }

  const ends = endsRunningRun(state, pulse.rid);
  const pairedStartAt = ends ? state.runningSince : null;
  const answered = runAnsweredBy(state, pairedStartAt ?? ridStartedAt ?? pulse.at);
  const closesOlder = !ends && pulse.kind === 'success' && (startedSince(state, ridStartedAt) || (settled(state) && isToldRun(state)));
  const closed: PulseState = {
    ...state,
    expectedRunAt: advanceExpectedRun(state, pairedStartAt === null && ridStartedAt === null ? answered : plannedFromEnd(state, answered, pulse.at, pairedStartAt !== null), pulse.at),
    runningSince: ends || closesOlder ? (openStart?.at ?? null) : state.runningSince,
    runningRid: ends || closesOlder ? (openStart?.rid ?? null) : state.runningRid,
    graceFrom: null,
    lastRunAt,
  };

  if (isStalePulse(state, pulse.at)) return { state: closed, transition: null, pairedStartAt };
  const confirmed = { ...closed, stateSince: pulse.at };
  if (pulse.kind === 'success') {
    const transition = settled(state) ? 'recovered' : null;
    const fine = { ...confirmed, isAlerted: false, alertSent: true, alertReasonData: null, failures: [] };
    return { state: fine, transition, pairedStartAt };
  }
  const reason = reportedFailureReason(pulse.exitCode);
  // Already failed and alerted: no second alert, but the reason becomes what the job said (a run that comes
  // late and fails is no longer "did not come").
  if (settled(state)) return { state: { ...confirmed, alertReasonData: reason }, transition: null, pairedStartAt };
  const streak = { alertAfter: state.alertAfter ?? DEFAULT_ALERT_AFTER, failures: state.isAlerted ? (state.failures ?? []) : [], alertSent: false };
  const counted = addFailure(streak, answered ?? pulse.at);
  const failed = {
    ...confirmed,
    isAlerted: true,
    alertSent: counted.streak.alertSent,
    failures: counted.streak.failures,
    alertReasonData: reason,
  };
  return { state: failed, transition: counted.alert ? 'failed' : null, pairedStartAt };
}
