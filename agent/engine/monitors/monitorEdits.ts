import type { MonitorRow } from '../../db/monitors';
import type { PulseMonitorRow } from '../../db/pulseMonitors';
import { dueAt, dueTimeAt, editMovesRuns, pauseEndsAt, pausedDueAt, replannedTiming, type MonitorTiming } from '../../domain/monitors/dueTime';
import { sortedTags, type FieldChanges } from '../../domain/monitors/ownLine';
import { tagsOf } from '../../db/monitorLines';
import type { EngineContext } from '../engineContext';
import { pauseOf, timingOf } from './monitorState';
import { replanEarlier } from './maintenance';

/* What an admin does to a monitor besides pulses: edit, pause, snooze, resume. */

/** The fields an edit may change; absent ones keep their value. */
export interface MonitorChanges {
  name?: string;
  project_id?: number | null;
  timezone?: string;
  schedule?: string;
  duration?: number;
  /** Null removes the max run time. */
  max_runtime?: number | null;
  /** The failure in a row that alerts (agent/domain/monitors/failureStreak.ts). */
  alert_after?: number;
  tags?: string[];
}

/** Who changed a monitor's settings, as its history says: the API (dashboard, CLI) or the job's own line. */
export type ChangeSource = 'api' | 'line';

type Ctx = Pick<EngineContext, 'store' | 'events'>;

/**
 * Edits a live monitor at `now`; null when the company has no such monitor. The token never
 * changes. A new schedule, or zone of a clock schedule, re-plans it from `now` (replannedTiming);
 * a new grace keeps the run it waits for, with the new deadline. A paused monitor is planned at its pause's end. What changed goes into the monitor's history,
 * with who changed it (`source`). Values it has already change nothing (`channelsChanged`: its channels, kept
 * elsewhere, did change, so it was edited all the same).
 */
export function editMonitor(
  { store, events }: Ctx,
  companyId: number,
  id: number,
  changes: MonitorChanges,
  now: number,
  source: ChangeSource = 'api',
  channelsChanged = false,
) {
  let wrote = false;
  const edited = store.db.transaction((): MonitorRow | null => {
    const row = store.monitors.find(companyId, id);
    if (!row) return null;
    const next = {
      name: changes.name ?? row.name,
      projectId: changes.project_id === undefined ? row.project_id : changes.project_id,
      timezone: changes.timezone ?? row.timezone,
      schedule: changes.schedule ?? row.schedule,
      duration: changes.duration ?? row.duration,
      maxRuntime: changes.max_runtime === undefined ? row.max_runtime : changes.max_runtime,
    };
    const alertAfter = changes.alert_after ?? row.alert_after;
    const tags = changes.tags === undefined ? tagsOf(row) : sortedTags(changes.tags);
    const changed = fieldChanges(
      { name: row.name, project_id: row.project_id, timezone: row.timezone, schedule: row.schedule, duration: row.duration, max_runtime: row.max_runtime, alert_after: row.alert_after, tags: tagsOf(row) },
      { name: next.name, project_id: next.projectId, timezone: next.timezone, schedule: next.schedule, duration: next.duration, max_runtime: next.maxRuntime, alert_after: alertAfter, tags },
    );
    // Values it has already are no edit, as an Eloquent model saved clean is not touched: updated_at stays.
    if (Object.keys(changed).length === 0 && !channelsChanged) return row;
    wrote = true;
    const live = row.paused_at === null;
    const replan = live && editMovesRuns(row, next);
    // A new grace or max run time moves only deadlines: the run waited for, or the run in progress, stays.
    const newDeadlines = live && (next.duration !== row.duration || next.maxRuntime !== row.max_runtime);
    let timing: MonitorTiming = { ...timingOf(row), schedule: next.schedule, timezone: next.timezone, durationMinutes: next.duration, maxRuntimeMinutes: next.maxRuntime };
    if (replan) timing = replannedTiming(timing, now);
    store.monitors.edit(companyId, id, {
      ...next,
      expectedRunAt: timing.expectedRunAt,
      graceFrom: timing.graceFrom,
      dueAt: replan || newDeadlines ? dueAt(timing) : row.due_at,
      now,
    });
    // A failure counting towards the old number alerts at the new one when its next failure comes.
    if (alertAfter !== row.alert_after) store.monitorAlerting.setAlertAfter(companyId, id, alertAfter, now);
    if (tags.join(' ') !== row.tags) {
      store.monitorLines.setTags(id, tags, now);
      // Tags that no longer meet a window under way end its hold on the monitor, as ending the window would.
      replanEarlier({ store }, store.monitors.find(companyId, id)!, now);
    }
    if (Object.keys(changed).length > 0) store.monitorLines.recordChange(id, now, source, changed);
    return store.monitors.find(companyId, id);
  })();
  if (edited && wrote) events.emit({ type: 'monitor.changed', companyId, monitorId: id });
  return edited;
}

/** The fields of `after` that differ from `before` (lists compared by their items). */
function fieldChanges(before: Record<string, unknown>, after: Record<string, unknown>): FieldChanges {
  const changes: FieldChanges = {};
  for (const [field, to] of Object.entries(after)) {
    if (JSON.stringify(before[field]) !== JSON.stringify(to)) changes[field] = { from: before[field], to };
  }
  return changes;
}

/**
 * Pauses a monitor at `now`, until resumed (`until` null) or until `until` (a snooze). A pause
 * acknowledges a failure and forgets a run in progress; nothing is due while paused. Pausing a
 * paused monitor moves its end. Null when the company has no such monitor.
 */
export function pauseMonitor({ store, events }: Ctx, companyId: number, id: number, until: number | null, now: number) {
  const paused = store.db.transaction((): MonitorRow | null => {
    const row = store.monitors.find(companyId, id);
    if (!row) return null;
    const pause = { pausedAt: row.paused_at ?? now, pausedUntil: until };
    store.monitors.setPause(companyId, id, {
      ...pause,
      resumedAt: null,
      expectedRunAt: null,
      graceFrom: null,
      dueAt: pausedDueAt(pause),
      now,
    });
    noteInHistory(store, row, 'pause', until === null ? 'Paused until resumed' : `Snoozed until ${utcMinute(until)}`, now, until);
    return store.monitors.find(companyId, id);
  })();
  if (paused) events.emit({ type: 'monitor.changed', companyId, monitorId: id });
  return paused;
}

/** The timing a paused monitor resumes with at `now` (by hand, or its snooze over): planned from the pause's end. */
function resumedTiming(row: PulseMonitorRow, now: number): MonitorTiming {
  const base: MonitorTiming = { ...timingOf(row), isAlerted: false, runningSince: null, graceFrom: null };
  return replannedTiming(base, pauseEndsAt(pauseOf(row), now));
}

/**
 * Stores the resume of a paused row, inside the caller's transaction. A failure acknowledged by
 * the pause is not a recovery: the monitor starts a fresh wait ("new" until its next pulse, failed
 * if that run is missed), no recovered notification, and the run history shows the resume.
 * Returns the monitor as resumed (`row` is a live monitor read in the same transaction).
 */
export function storeResume({ store }: Pick<EngineContext, 'store'>, row: PulseMonitorRow, now: number): MonitorRow {
  const timing = resumedTiming(row, now);
  // A grace from `now` when the plan's deadline has passed already (the agent was not running when the snooze ended).
  const resumed = store.monitors.setPause(row.company_id, row.id, {
    resumedAt: now,
    pausedAt: null,
    pausedUntil: null,
    expectedRunAt: timing.expectedRunAt,
    ...dueTimeAt(timing, now),
    now,
  });
  const snoozeOver = row.paused_until !== null && row.paused_until <= now;
  noteInHistory(store, row, 'resume', snoozeOver ? 'Snooze over: waiting for the next run' : 'Resumed: waiting for the next run', now);
  return resumed!;
}

/** A pause or resume, as a line of the run history (it is no pulse: no method, no address). */
function noteInHistory(
  store: EngineContext['store'],
  row: Pick<MonitorRow, 'id' | 'pulses_kept'>,
  kind: 'pause' | 'resume',
  text: string,
  now: number,
  pausedUntil: number | null = null,
): void {
  store.pulses.add({
    monitorId: row.id,
    kind,
    exitCode: null,
    rid: null,
    receivedAt: now,
    durationMs: null,
    method: '',
    remoteAddress: '',
    body: text,
    bodyTruncated: false,
    idempotencyKey: null,
    pausedUntil,
    keptBefore: row.pulses_kept,
  });
}

function utcMinute(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Resumes a paused monitor at `now` (a monitor not paused is left as it is). Null when there is no such monitor. */
export function resumeMonitor(ctx: Ctx, companyId: number, id: number, now: number) {
  const resumed = ctx.store.db.transaction((): MonitorRow | null => {
    const row = ctx.store.monitors.find(companyId, id);
    if (!row) return null;
    if (row.paused_at === null) return row;
    storeResume(ctx, row, now);
    return ctx.store.monitors.find(companyId, id);
  })();
  if (resumed) ctx.events.emit({ type: 'monitor.changed', companyId, monitorId: id });
  return resumed;
}
