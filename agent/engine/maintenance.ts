import type { MonitorRow } from '../db/monitors';
import { tagsOf } from '../db/monitorLines';
import { dueAt, expectedRunAfter, minutesAfter, withCatchUpGrace, type MissedDeadline } from '../domain/dueTime';
import { activeWindowAt, maintenanceReplanFrom, type CoveredMonitor, type WaitedRun } from '../domain/maintenanceWindows';
import type { EngineContext } from './engineContext';
import { timingOf } from './monitorState';

/*
 * The one place the engine asks about maintenance windows: the loop before it fails an overdue
 * monitor (excuseByMaintenance), a pulse before it changes a monitor's state (inMaintenance).
 * The rules are agent/domain/maintenanceWindows.ts.
 */

type Ctx = Pick<EngineContext, 'store'>;

const coveredOf = (row: MonitorRow): CoveredMonitor => ({ id: row.id, tags: tagsOf(row) });

/** Whether maintenance covers `row` at any of `moments` (a pulse's arrival and the time it counts for). */
export function inMaintenance({ store }: Ctx, row: MonitorRow, ...moments: number[]): boolean {
  const windows = store.maintenanceWindows.windows(row.company_id);
  if (windows.length === 0) return false;
  const monitor = coveredOf(row);
  return moments.some((at) => activeWindowAt(windows, monitor, at) !== null);
}

/** The run a missed deadline was about, and when it was late without any grace. */
function waitedRun(missed: MissedDeadline, durationMinutes: number): WaitedRun {
  const due = missed.kind === 'no_pulse' ? missed.runAt : missed.startedAt;
  return { due, deadline: minutesAfter(due, durationMinutes) };
}

/** When a monitor that missed `missed` at `now` is planned again from because of maintenance; null when it fails. */
export function maintenanceReplan({ store }: Ctx, row: MonitorRow, missed: MissedDeadline, now: number): number | null {
  const windows = store.maintenanceWindows.windows(row.company_id);
  if (windows.length === 0) return null;
  return maintenanceReplanFrom(windows, coveredOf(row), waitedRun(missed, row.duration), now);
}

/**
 * Inside the loop's transaction: when maintenance excuses the deadline `row` missed, plans it to
 * wait for its first run at or after the maintenance's end (a run in progress is forgotten) and
 * returns true; false when the miss is a true one. A deadline already past by then (Cronbeat did
 * not run meanwhile) gets the usual catch-up grace from `now`.
 */
export function excuseByMaintenance(ctx: Ctx, row: MonitorRow, missed: MissedDeadline, now: number): boolean {
  const from = maintenanceReplan(ctx, row, missed, now);
  if (from === null) return false;
  const planned = { ...timingOf(row), expectedRunAt: expectedRunAfter(row, from - 1), runningSince: null, graceFrom: null };
  const timing = withCatchUpGrace(planned, now);
  ctx.store.monitors.replanAfterMaintenance({ id: row.id, expectedRunAt: timing.expectedRunAt, graceFrom: timing.graceFrom, dueAt: dueAt(timing), now });
  return true;
}
