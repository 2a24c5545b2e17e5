import type { MonitorRow } from '../../db/monitors';
import type { PulseMonitorRow } from '../../db/pulseMonitors';
import { tagsOf } from '../../db/monitorLines';
import { dueAt, dueTimeKeepingGrace, expectedRunAfter, expectedRunAtOrAfter, runAnsweredBy, type MissedDeadline } from '../../domain/monitors/dueTime';
import {
  activeWindowAt,
  coversMonitor,
  maintenanceReplanFrom,
  pulseMoments,
  windowEnd,
  type CoveredMonitor,
  type MaintenanceWindow,
  waitedRunOf,
} from '../../domain/maintenance/windows';
import type { EngineContext } from '../engineContext';
import { timingOf } from './monitorState';
import { flapStateOf, steadyAt } from '../../domain/alerts/flapping';

/*
 * The one place the engine asks about maintenance windows: the loop before it fails an overdue
 * monitor (excuseByMaintenance), a pulse before it changes a monitor's state (inMaintenance).
 * The rules are agent/domain/maintenance/windows.ts.
 */

type Ctx = Pick<EngineContext, 'store'>;

const coveredOf = (row: PulseMonitorRow): CoveredMonitor => ({ id: row.id, tags: tagsOf(row) });

/** Whether maintenance covers `row` at `now`. */
export function inMaintenance({ store }: Ctx, row: PulseMonitorRow, now: number): boolean {
  return coveredAtAny(store.maintenanceWindows.windows(row.company_id), row, () => [now]);
}

/** Whether maintenance holds a pulse that came at `now` and counts for `at` (pulseMoments). */
export function pulseInMaintenance({ store }: Ctx, row: PulseMonitorRow, now: number, at: number): boolean {
  return coveredAtAny(store.maintenanceWindows.windows(row.company_id), row, () => pulseMoments(row, now, at));
}

/** Whether one of `windows` covers `row` at one of `moments` (asked only when there are windows: pulses come by the thousand). */
function coveredAtAny(windows: readonly MaintenanceWindow[], row: PulseMonitorRow, moments: () => number[]): boolean {
  if (windows.length === 0) return false;
  const monitor = coveredOf(row);
  return moments().some((at) => activeWindowAt(windows, monitor, at) !== null);
}

/** When the maintenance covering `row` at `now` ends (the latest end, when several are under way); null when none is. */
export function maintenanceEndAt({ store }: Ctx, row: PulseMonitorRow, now: number): number | null {
  const windows = store.maintenanceWindows.windows(row.company_id);
  return windows.length === 0 ? null : (activeWindowAt(windows, coveredOf(row), now)?.end ?? null);
}

/** When a monitor that missed `missed` is planned again from because of maintenance; null when it fails. */
export function maintenanceReplan({ store }: Ctx, row: MonitorRow, missed: MissedDeadline): number | null {
  const windows = store.maintenanceWindows.windows(row.company_id);
  if (windows.length === 0) return null;
  return maintenanceReplanFrom(windows, coveredOf(row), waitedRunOf(missed, row.duration));
}

/**
 * Inside the loop's transaction: when maintenance excuses the deadline `row` missed, plans it to
 * wait for its first run at or after the maintenance's end (a run in progress is forgotten) and
 * returns true; false when the miss is a true one. A catch-up grace in course (Cronbeat did not
 * run meanwhile) is kept; none is given anew, so a deadline already past fails at the next step.
 */
export function excuseByMaintenance(ctx: Ctx, row: MonitorRow, missed: MissedDeadline, now: number): boolean {
  const from = maintenanceReplan(ctx, row, missed);
  if (from === null) return false;
  const planned = { ...timingOf(row), expectedRunAt: expectedRunAtOrAfter(row, from), runningSince: null, graceFrom: null };
  ctx.store.monitors.replanAfterMaintenance({ id: row.id, expectedRunAt: planned.expectedRunAt, ...dueTimeKeepingGrace(planned, row.grace_from), now });
  return true;
}

/**
 * The run `row` should wait for at `now` once no maintenance (or less of it) holds it: the first
 * run at or after the end of maintenance still under way, else the next run after `now`, but
 * never one a pulse already answered (a pulse a few seconds early counts for the coming run).
 */
function runToWaitFor(ctx: Ctx, row: MonitorRow, now: number): number | null {
  const windows = ctx.store.maintenanceWindows.windows(row.company_id);
  const active = activeWindowAt(windows, coveredOf(row), now);
  if (active) return expectedRunAtOrAfter(row, active.end);
  const next = expectedRunAfter(row, now);
  const answered = row.last_pulse_at === null ? null : runAnsweredBy(row, row.last_pulse_at);
  return next !== null && answered !== null && answered >= next ? expectedRunAfter(row, answered) : next;
}

/**
 * After `old` (as it was before an edit or a removal) stopped holding monitors as long: each
 * monitor it covered that was waiting for its first run after `old`'s end waits instead for the
 * run it would have without that (runToWaitFor), so a window ended early hides no run after it.
 * Call inside the transaction that changed the window; returns the monitors planned again, whose
 * change the caller announces once it has committed.
 */
export function replanAfterWindowChange(ctx: Ctx, companyId: number, old: MaintenanceWindow, now: number): MonitorRow[] {
  const oldEnd = windowEnd(old, now);
  if (oldEnd === null) return [];
  const replanned: MonitorRow[] = [];
  for (const row of ctx.store.monitors.list(companyId)) {
    if (!coversMonitor(old, coveredOf(row))) continue;
    const waitedOut = row.expected_run_at !== null && row.expected_run_at >= oldEnd;
    if (waitedOut ? replanEarlier(ctx, row, now) : releaseHeldSteady(ctx, row, now)) replanned.push(row);
  }
  return replanned;
}

/**
 * A flapping monitor whose steady-again alert was held for the end of a window (sendSteady)
 * gets it from `now` on, when no window holds it any more (the next step asks again). Returns
 * whether it was held.
 */
function releaseHeldSteady(ctx: Ctx, row: MonitorRow, now: number): boolean {
  if (row.steady_at === null || row.steady_at <= now) return false;
  const state = flapStateOf(row.flapping);
  const steady = steadyAt(state);
  if (steady === null || steady >= row.steady_at) return false;
  ctx.store.monitorAlerting.saveFlapping(row.id, state, Math.max(now, steady));
  return true;
}

/**
 * Plans `row` (as it is now) to wait for runToWaitFor when that comes before the run it waits for:
 * maintenance no longer holds it as long (a window ended early, or its tags no longer meet a window
 * under way), and releases a steady-again alert held for that window's end. Never later. Call inside
 * the transaction of the change; returns whether it changed anything.
 */
export function replanEarlier(ctx: Ctx, row: MonitorRow, now: number): boolean {
  const released = releaseHeldSteady(ctx, row, now);
  // A failure still counting towards its alert is watched like a fine monitor; an alerted one waits for a success.
  if ((row.is_alerted === 1 && row.alert_sent === 1) || row.paused_at !== null || row.running_since !== null || row.expected_run_at === null) return released;
  const run = runToWaitFor(ctx, row, now);
  if (run === null || run >= row.expected_run_at) return released;
  const timing = { ...timingOf(row), expectedRunAt: run, graceFrom: null };
  ctx.store.monitors.replanAfterMaintenance({ id: row.id, expectedRunAt: run, graceFrom: null, dueAt: dueAt(timing), now });
  return true;
}
