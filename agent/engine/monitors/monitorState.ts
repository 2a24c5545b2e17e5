import { reasonDataOf, type MonitorRow, type MonitorTimingUpdate } from '../../db/monitors';
import type { PulseMonitorRow } from '../../db/pulseMonitors';
import { dueTimeAt, type MonitorTiming, type PauseState } from '../../domain/monitors/dueTime';
import type { PulseState } from '../../domain/monitors/pulseEffect';
import { failuresOf } from '../../domain/monitors/failureStreak';

/* Between a monitor row and the domain's view of it, in one place. */

export function timingOf(row: PulseMonitorRow): MonitorTiming {
  return {
    schedule: row.schedule,
    timezone: row.timezone,
    durationMinutes: row.duration,
    expectedRunAt: row.expected_run_at,
    runningSince: row.running_since,
    maxRuntimeMinutes: row.max_runtime,
    isAlerted: row.is_alerted === 1,
    alertSent: row.alert_sent === 1,
    graceFrom: row.grace_from,
  };
}

/** One literal rather than a spread of timingOf: this runs for every pulse, and V8 builds a spread with more keys slowly. */
export function pulseStateOf(row: PulseMonitorRow): PulseState {
  return {
    schedule: row.schedule,
    timezone: row.timezone,
    durationMinutes: row.duration,
    expectedRunAt: row.expected_run_at,
    runningSince: row.running_since,
    maxRuntimeMinutes: row.max_runtime,
    isAlerted: row.is_alerted === 1,
    alertSent: row.alert_sent === 1,
    graceFrom: row.grace_from,
    runningRid: row.running_rid,
    lastRunAt: row.last_run_at,
    alertReasonData: reasonDataOf(row),
    stateSince: row.state_since,
    alertAfter: row.alert_after,
    failures: failuresOf(row.failures),
  };
}

/**
 * The update that stores `state` on monitor `id` at `now` for a pulse that counts at `pulseAt`,
 * with the domain's due time (dueTimeAt): a pulse that leaves a deadline already past (it came
 * late: replayed, or read after a freeze) gives a catch-up grace, so a success pulse never fails a monitor.
 */
export function timingUpdate(id: number, state: PulseState, now: number, pulseAt: number): MonitorTimingUpdate {
  const { graceFrom, dueAt } = dueTimeAt(state, now);
  return {
    id,
    lastRunAt: state.lastRunAt,
    isAlerted: state.isAlerted ? 1 : 0,
    alertReasonData: state.alertReasonData === null ? null : JSON.stringify(state.alertReasonData),
    stateSince: state.stateSince,
    expectedRunAt: state.expectedRunAt,
    runningSince: state.runningSince,
    runningRid: state.runningRid,
    graceFrom,
    dueAt,
    now,
    pulseAt,
    failures: state.failures && state.failures.length > 0 ? JSON.stringify(state.failures) : '[]',
    alertSent: state.alertSent === false ? 0 : 1,
  };
}

export function pauseOf(row: Pick<MonitorRow, 'paused_at' | 'paused_until'>): PauseState {
  return { pausedAt: row.paused_at, pausedUntil: row.paused_until };
}
