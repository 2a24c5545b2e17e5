import { reasonDataOf, type MonitorRow } from '../../db/monitors';
import { alertMonitor, alertServer, type Alert } from '../../domain/alerts/alert';
import { alertPopup } from '../../domain/alerts/monitorPopups';
import { flapStateOf, noteChange, steadyAt } from '../../domain/alerts/flapping';
import { flappingNoticeData, flappingReason, steadyReason } from '../../domain/alerts/flappingNotices';
import { NOTIFICATION_KINDS } from '../../domain/alerts/notificationKinds';
import { toApiTimestamp } from '../../domain/time/apiTimestamps';
import type { MonitorTransition } from '../../domain/alerts/monitorPopups';
import type { EngineContext } from '../engineContext';
import { inMaintenance, maintenanceEndAt } from './maintenance';
import { announceTransition, recordTransition, type RecordedTransition, type TransitionFacts } from './transitions';

/*
 * Between a monitor's alerting change (its failure alerts, after its N failures in a row; or its
 * alerted failure recovers) and the alert: flapping (agent/domain/alerts/flapping.ts) folds a
 * run of them into one alert, then nothing until the monitor has been steady for an hour.
 */

/** Most steady-again alerts one step sends; the rest wait for the next step. */
const STEADY_BATCH = 200;

/**
 * Records an alerting change of `monitor` (as it is now, after the change), inside the caller's
 * transaction: its alert (recordTransition), or the flapping alert in its place when this change
 * makes it flap, or nothing while it flaps. The caller announces what it returns once committed.
 */
export function raiseChange(
  ctx: Pick<EngineContext, 'store'>,
  monitor: MonitorRow,
  kind: MonitorTransition['kind'],
  now: number,
  facts: TransitionFacts,
): RecordedTransition | null {
  const noted = noteAlertingChange(monitor, now);
  ctx.store.monitorAlerting.saveFlapping(monitor.id, noted.state, noted.steadyAt);
  return raiseNotedChange(ctx, monitor, kind, now, facts, noted);
}

/** An alerting change as flapping sees it: the flap state it leaves, when that is steady (null: not flapping), what it raises. */
export type NotedChange = ReturnType<typeof noteChange> & { steadyAt: number | null };

/** What an alerting change of `monitor` at `now` does to its flapping, for raiseNotedChange. */
export function noteAlertingChange(monitor: Pick<MonitorRow, 'flapping'>, now: number): NotedChange {
  const { state, outcome } = noteChange(flapStateOf(monitor.flapping), now);
  return { state, outcome, steadyAt: steadyAt(state) };
}

/**
 * raiseChange for a change whose flap state the caller stored with the change itself: the loop
 * fails each monitor of a burst with one UPDATE instead of two (the second was a twentieth of the burst's time).
 */
export function raiseNotedChange(
  ctx: Pick<EngineContext, 'store'>,
  monitor: MonitorRow,
  kind: MonitorTransition['kind'],
  now: number,
  facts: TransitionFacts,
  { state, outcome }: NotedChange,
): RecordedTransition | null {
  if (outcome === 'alert') return recordTransition(ctx, monitor, kind, now, facts);
  // No failed or recovered notification tells this change: a report counts its failed time from this note.
  const why = kind === 'failed' ? (facts.reason.kind === 'failed_times' ? facts.reason.last.kind : facts.reason.kind) : null;
  ctx.store.quietChanges.record(monitor.company_id, monitor.id, now, kind, why);
  if (outcome === 'silent') return null;
  const reason = flappingReason(state, kind === 'failed', now);
  const alert: Alert = {
    event: 'monitor.flapping',
    at: toApiTimestamp(now),
    reason,
    monitor: alertMonitor(monitor),
    server: alertServer(monitor),
    run: facts.run,
    expected_at: null,
  };
  const data = flappingNoticeData({ ...monitor, reason: reasonDataOf(monitor) }, reason);
  const notification = ctx.store.notifications.create({ companyId: monitor.company_id, type: NOTIFICATION_KINDS.monitorFlapping.type, data, now, alert });
  return {
    monitorId: monitor.id,
    name: monitor.name,
    kind,
    detail: data.description,
    alert,
    companyId: monitor.company_id,
    notificationId: notification.id,
  };
}

/**
 * Sends the steady-again alert of every flapping monitor without a change for an hour at `now`,
 * and forgets its changes: from then on its failures and recoveries alert again. A paused monitor
 * raises nothing, but is steady all the same; one in maintenance is steady when the window ends.
 * Returns how many were sent.
 */
export function sendSteady(ctx: Pick<EngineContext, 'store' | 'events' | 'notifier'>, now: number): number {
  const { store } = ctx;
  const sent = store.db.transaction(() => {
    const made: RecordedTransition[] = [];
    for (const row of store.monitorAlerting.steadyDue(now, STEADY_BATCH)) {
      // A failure short of its alert after N alerts nothing: to the channels the monitor is fine.
      const failed = row.is_alerted === 1 && row.alert_sent === 1;
      // What flapping kept quiet is told at the end of the window, failed or fine: its last word may
      // have been the other ("now fine" before a failure, "now failed" before a recovery).
      const windowEnds = row.paused_at === null ? maintenanceEndAt(ctx, row, now) : null;
      store.monitorAlerting.saveFlapping(row.id, windowEnds === null ? null : flapStateOf(row.flapping), windowEnds);
      if (row.paused_at !== null || inMaintenance(ctx, row, now)) continue;
      const reason = steadyReason(flapStateOf(row.flapping), failed ? row.failed_at : null);
      const alert: Alert = {
        event: 'monitor.steady',
        at: toApiTimestamp(now),
        reason,
        monitor: alertMonitor(row),
        server: alertServer(row),
        run: null,
        expected_at: null,
      };
      const data = flappingNoticeData({ ...row, reason: reasonDataOf(row) }, reason);
      const notification = store.notifications.create({ companyId: row.company_id, type: NOTIFICATION_KINDS.monitorSteady.type, data, now, alert });
      // The only word of a failure flapping kept quiet: the channels that repeat alerts repeat it from now on.
      if (failed) store.reminders.plan(row.id, notification.id, now);
      made.push({ monitorId: row.id, name: row.name, kind: failed ? 'failed' : 'recovered', detail: data.description, alert, companyId: row.company_id, notificationId: notification.id });
    }
    return made;
  })();
  for (const transition of sent) {
    announceTransition(ctx, transition);
    ctx.notifier.show(alertPopup(transition.alert!, `/monitors/${transition.monitorId}`));
  }
  if (sent.length > 0) store.popupOutbox.markShown(sent.map((t) => t.notificationId), now);
  return sent.length;
}
