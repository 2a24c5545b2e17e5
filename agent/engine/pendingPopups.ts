import { stepPopups, type MonitorTransition } from '../domain/monitorPopups';
import type { EngineContext } from './engineContext';

/**
 * Shows the popups of failures and recoveries that a previous run committed but died before
 * showing (the popup outbox), one each or one summary for more than 3, and marks them shown so
 * no later start shows them again. Returns how many there were. Called once at start.
 */
export function showPendingPopups({ store, notifier }: Pick<EngineContext, 'store' | 'notifier'>, now: number): number {
  const pending = store.popupOutbox.pending();
  const transitions: MonitorTransition[] = pending.map(({ kind, data }) => ({
    monitorId: data.type_id,
    name: data.monitor_name,
    kind,
    detail: data.description,
  }));
  for (const popup of stepPopups(transitions)) notifier.show(popup);
  store.popupOutbox.markShown(pending.map((p) => p.notificationId), now);
  return pending.length;
}
