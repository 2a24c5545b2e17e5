import type { Db } from './open';
import type { Alert } from '../domain/alerts/alert';
import { NOTIFICATION_KINDS, type MonitorNotificationData } from '../domain/alerts/notificationKinds';

/*
 * Popups as an outbox (migration 6): a monitor's failure or recovery is committed with its
 * notification before its popup is shown, and the notification is marked shown only after. One
 * left unmarked (the agent died in between) is shown at the next start, then marked, so it is
 * shown once.
 */

const FAILED = NOTIFICATION_KINDS.monitorFailed.type;
const RECOVERED = NOTIFICATION_KINDS.monitorRecovered.type;
/** As SQL literals: the partial index notifications_popup_pending is used only when the query repeats its terms. */
const MONITOR_KINDS_SQL = [FAILED, RECOVERED].map((type) => `'${type.replace(/'/g, "''")}'`).join(', ');

export interface PendingPopup {
  notificationId: string;
  kind: 'failed' | 'recovered';
  data: MonitorNotificationData;
  alert: Alert | null;
}

export function popupOutboxRepository(db: Db) {
  const pending = db.prepare(
    `SELECT id, type, data, alert FROM notifications
     WHERE popup_shown_at IS NULL AND type IN (${MONITOR_KINDS_SQL})
     ORDER BY created_at, rowid LIMIT ?`,
  );
  const countPending = db
    .prepare(`SELECT count(*) FROM notifications WHERE popup_shown_at IS NULL AND type IN (${MONITOR_KINDS_SQL})`)
    .pluck();
  const markAllPending = db.prepare(
    `UPDATE notifications SET popup_shown_at = @now WHERE popup_shown_at IS NULL AND type IN (${MONITOR_KINDS_SQL})`,
  );
  const markShown = db.prepare(
    'UPDATE notifications SET popup_shown_at = coalesce(@now, created_at) WHERE id = @id AND popup_shown_at IS NULL',
  );
  const markAll = db.transaction((ids: string[], now: number | null) => {
    for (const id of ids) markShown.run({ id, now });
  });

  return {
    /** How many monitor failures and recoveries have a popup not shown yet. */
    countPending(): number {
      return countPending.get() as number;
    },
    /** The oldest `limit` monitor failures and recoveries whose popup has not been shown. */
    pending(limit: number): PendingPopup[] {
      return (pending.all(limit) as Array<{ id: string; type: string; data: string; alert: string | null }>).map((row) => ({
        notificationId: row.id,
        kind: row.type === FAILED ? 'failed' : 'recovered',
        data: JSON.parse(row.data) as MonitorNotificationData,
        alert: row.alert === null ? null : (JSON.parse(row.alert) as Alert),
      }));
    },
    /**
     * Records that the popups of these notifications were handed to the notifier: at `now`, or
     * (no `now`, for popups shown as the change is committed) at the notification's own time.
     */
    markShown(notificationIds: string[], now: number | null = null): void {
      if (notificationIds.length > 0) markAll(notificationIds, now);
    },
    /** Marks every pending popup shown at `now`, in one statement. */
    markAllShown(now: number): void {
      markAllPending.run({ now });
    },
  };
}
