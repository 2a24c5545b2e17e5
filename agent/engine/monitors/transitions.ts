import { reasonDataOf, type MonitorRow } from '../../db/monitors';
import { alertMonitor, alertServer, type Alert, type AlertReason, type AlertRun } from '../../domain/alerts/alert';
import { toApiTimestamp, toNullableApiTimestamp } from '../../domain/time/apiTimestamps';
import { monitorFailedData, monitorRecoveredData, type NotifiedMonitor } from '../../domain/alerts/monitorNotifications';
import type { MonitorTransition } from '../../domain/alerts/monitorPopups';
import { NOTIFICATION_KINDS } from '../../domain/alerts/notificationKinds';
import { problemOf } from '../../domain/alerts/vocabulary';
import type { EngineContext } from '../engineContext';
import { failedTimesPieces, piecesText } from '../../domain/alerts/reasonPieces';
import { timesInARow } from '../../domain/alerts/streakWords';

/** A transition as recorded: what popups tell, plus what live views must hear about. */
export interface RecordedTransition extends MonitorTransition {
  companyId: number;
  notificationId: string;
}

/** What the caller knows of a transition: why, the run it is about, and when that run was due. */
export interface TransitionFacts {
  reason: AlertReason;
  run: AlertRun | null;
  expectedAt: number | null;
}

/** The alert of a transition, as data: what every channel and the popup render. */
export function transitionAlert(monitor: MonitorRow, kind: MonitorTransition['kind'], now: number, facts: TransitionFacts): Alert {
  return {
    event: kind === 'failed' ? 'monitor.failed' : 'monitor.recovered',
    at: toApiTimestamp(now),
    reason: facts.reason,
    monitor: alertMonitor(monitor),
    server: alertServer(monitor),
    run: facts.run,
    expected_at: toNullableApiTimestamp(facts.expectedAt),
  };
}

/**
 * What the notification about `monitor` carries, its reason read from its data: the fields alone,
 * not a copy of the row's 36 columns (a burst makes 10,000).
 */
function notifiedMonitorOf(monitor: MonitorRow): NotifiedMonitor {
  return {
    id: monitor.id,
    name: monitor.name,
    project_id: monitor.project_id,
    token: monitor.token,
    timezone: monitor.timezone,
    schedule: monitor.schedule,
    duration: monitor.duration,
    last_run_at: monitor.last_run_at,
    is_alerted: monitor.is_alerted,
    alert_reason: monitor.alert_reason,
    reason: reasonDataOf(monitor),
  };
}

/**
 * Records that `monitor` (as it is now, after the change) failed or recovered: the
 * notification of that kind. Runs inside the caller's transaction; the caller announces it
 * (announceTransition) once that transaction has committed.
 */
export function recordTransition(
  { store }: Pick<EngineContext, 'store'>,
  monitor: MonitorRow,
  kind: MonitorTransition['kind'],
  now: number,
  facts: TransitionFacts,
): RecordedTransition {
  const failed = kind === 'failed';
  const alert = transitionAlert(monitor, kind, now, facts);
  const notified = notifiedMonitorOf(monitor);
  const data = failed ? monitorFailedData(notified) : monitorRecoveredData(notified, monitor.last_run_at);
  // The N-th failure in a row: its title and description count them, as the popup and every channel do
  // (the monitor's alert_reason is the last one's).
  if (facts.reason.kind === 'failed_times') {
    data.title = `${monitor.name} went wrong ${timesInARow(facts.reason.times)}`;
    data.description = piecesText(failedTimesPieces(facts.reason), monitor.timezone);
  }
  const type = failed ? NOTIFICATION_KINDS.monitorFailed.type : NOTIFICATION_KINDS.monitorRecovered.type;
  const notification = store.notifications.create({ companyId: monitor.company_id, type, data, now, alert });
  // A channel that repeats alerts gets this failure again every N hours while it lasts (agent/engine/delivery/reminders.ts);
  // reminders are planned from its deliveries, so one that went to no channel has none (a statement less each).
  if (failed && notification.deliveries > 0) store.reminders.plan(monitor.id, notification.id, now);
  return {
    monitorId: monitor.id,
    name: monitor.name,
    kind,
    problem: problemOf(facts.reason),
    detail: data.description,
    alert,
    companyId: monitor.company_id,
    notificationId: notification.id,
  };
}

/** Tells live views about a recorded transition (popups are shown by the caller). */
export function announceTransition({ events }: Pick<EngineContext, 'events'>, transition: RecordedTransition): void {
  const { companyId, monitorId, notificationId } = transition;
  events.emit({ type: 'monitor.changed', companyId, monitorId });
  events.emit({ type: 'notification.created', companyId, notificationId });
}
