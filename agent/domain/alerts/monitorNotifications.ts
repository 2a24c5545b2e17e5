import type { MonitorReason } from './alert';
import { alertReasonWords, piecesText, recoveredPieces } from './reasonPieces';
import { NOTIFICATION_KINDS, type MonitorNotificationData } from './notificationKinds';
import { toApiTimestamp } from '../time/apiTimestamps';
import { monitorStateTitle } from './words';

/** The monitor facts a notification about it carries (a monitor row has them all). */
export interface NotifiedMonitor {
  id: number;
  name: string;
  project_id: number | null;
  token: string;
  timezone: string;
  schedule: string;
  duration: number;
  last_run_at: number;
  is_alerted: number;
  /** Words kept from before reasons were data; the words of `reason` are made from it. */
  alert_reason: string;
  /** Why it is failed now, as data (null: not failed, or failed before reasons were kept as data). */
  reason: MonitorReason | null;
}

/** The monitor's alert_reason as the notification's snapshot of it says it (alertReasonWords). */
const reasonWords = (monitor: NotifiedMonitor) => alertReasonWords(monitor.reason, monitor.alert_reason, monitor.timezone);

/** `alertReason`: the monitor's reasonWords, made once by a caller that says them twice (a burst makes 10,000). */
function monitorFields(monitor: NotifiedMonitor, alertReason = reasonWords(monitor)) {
  return {
    monitor_name: monitor.name,
    monitor_token: monitor.token,
    monitor_schedule: monitor.schedule,
    monitor_last_run_at: toApiTimestamp(monitor.last_run_at),
    monitor_duration: monitor.duration,
    monitor_is_alerted: monitor.is_alerted,
    monitor_alert_reason: alertReason,
  };
}

/** The data of a MonitorFailedNotification, as the spec's tables list it; `monitor` is already failed. */
export function monitorFailedData(monitor: NotifiedMonitor): MonitorNotificationData {
  const words = reasonWords(monitor);
  return {
    type: 'monitor',
    type_id: monitor.id,
    project_id: monitor.project_id,
    status: 'failed',
    title: monitorStateTitle(monitor.name, monitor.reason),
    description: words,
    timezone: monitor.timezone,
    icon: NOTIFICATION_KINDS.monitorFailed.icon,
    ...monitorFields(monitor, words),
  };
}

/** The data of a MonitorRecoveredNotification (our extension): `monitor` has just had a success pulse at `at`. */
export function monitorRecoveredData(monitor: NotifiedMonitor, at: number): MonitorNotificationData {
  return {
    type: 'monitor',
    type_id: monitor.id,
    project_id: monitor.project_id,
    status: 'recovered',
    title: `${monitor.name} recovered`,
    description: piecesText(recoveredPieces(at), monitor.timezone),
    timezone: monitor.timezone,
    icon: NOTIFICATION_KINDS.monitorRecovered.icon,
    ...monitorFields(monitor),
  };
}
