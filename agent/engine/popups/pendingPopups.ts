import { summaryPopup, stepPopups, type MonitorTransition } from '../../domain/alerts/monitorPopups';
import type { PendingPopup } from '../../db/popupOutbox';
import type { EngineContext } from '../engineContext';

/** Enough to name the monitors of a summary; more would only cost start-up time. */
export const READ_AT_MOST = 1000;

function asTransition({ kind, data, alert }: PendingPopup): MonitorTransition {
  return { monitorId: data.type_id, name: data.monitor_name, kind, detail: data.description, alert: alert ?? undefined };
}

/**
 * Shows the popups of failures and recoveries that a previous run committed but died before
 * showing (the popup outbox), one each or one summary for more than 3, and marks them shown so
 * no later start shows them again. Returns how many there were. Called once at start; reads at
 * most READ_AT_MOST of them, whatever the outbox holds.
 */
export function showPendingPopups({ store, notifier }: Pick<EngineContext, 'store' | 'notifier'>, now: number): number {
  const total = store.popupOutbox.countPending();
  if (total === 0) return 0;
  const transitions = store.popupOutbox.pending(READ_AT_MOST).map(asTransition);
  const unread = total - transitions.length;
  const popups = unread > 0 ? [summaryPopup(transitions, `…and ${unread} more while Cronbeat was stopped.`)] : stepPopups(transitions);
  for (const popup of popups) notifier.show(popup);
  store.popupOutbox.markAllShown(now);
  return total;
}
