import type { MonitorRow } from '../db/monitors';
import { monitorFailedData, monitorRecoveredData } from '../domain/monitorNotifications';
import type { MonitorTransition } from '../domain/monitorPopups';
import { NOTIFICATION_KINDS } from '../domain/notificationKinds';
import type { EngineContext } from './engineContext';

/** A transition as recorded: what popups tell, plus what live views must hear about. */
export interface RecordedTransition extends MonitorTransition {
  companyId: number;
  notificationId: string;
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
): RecordedTransition {
  const failed = kind === 'failed';
  const data = failed ? monitorFailedData(monitor) : monitorRecoveredData(monitor, monitor.last_run_at);
  const type = failed ? NOTIFICATION_KINDS.monitorFailed.type : NOTIFICATION_KINDS.monitorRecovered.type;
  const notification = store.notifications.create({ companyId: monitor.company_id, type, data, now });
  return {
    monitorId: monitor.id,
    name: monitor.name,
    kind,
    detail: data.description,
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
