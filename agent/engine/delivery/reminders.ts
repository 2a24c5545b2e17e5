import { NOTIFICATION_KINDS } from '../../domain/alerts/notificationKinds';
import { nextReminderAt, reminderWanted, stillFailingAlert, stillFailingData } from '../../domain/alerts/reminders';
import { reasonDataOf } from '../../db/monitors';
import type { EngineContext } from '../engineContext';
import { inMaintenance } from '../monitors/maintenance';

/** Most reminders one step sends; the rest wait for the next step. */
const REMINDER_BATCH = 200;

/**
 * Sends every reminder due at `now`: for each still-failed, unpaused monitor whose
 * failure went to a channel that repeats alerts, a MonitorStillFailingNotification with its one
 * delivery to that channel (the outbox sends it), and the next reminder N hours on. Reminders
 * of monitors that recovered, were paused or deleted, or of channels deleted, no longer
 * repeating or no longer the monitor's, are dropped. Each is taken by a conditional update, so it is sent once. Returns how many were sent.
 */
export function sendReminders({ store, events }: Pick<EngineContext, 'store' | 'events'>, now: number): number {
  const sent = store.db.transaction(() => {
    const made: Array<{ companyId: number; notificationId: string }> = [];
    for (const reminder of store.reminders.due(now, REMINDER_BATCH)) {
      const monitor = reminder.monitor_deleted ? null : store.monitors.find(reminder.company_id, reminder.monitor_id);
      const failure = store.notifications.find(reminder.company_id, reminder.notification_id);
      const wanted = reminderWanted({
        isAlerted: reminder.is_alerted === 1,
        paused: reminder.paused_at !== null,
        monitorDeleted: monitor === null,
        channelDeleted: reminder.channel_deleted === 1,
        routedHere: (store.channelRoutes.channelIds({ type: 'monitor', id: reminder.monitor_id }) ?? [reminder.channel_id]).includes(reminder.channel_id),
        remindEveryHours: reminder.remind_every_hours,
        failedAt: monitor?.failed_at ?? null,
        toldAt: failure?.created_at ?? 0,
      });
      if (!wanted || !monitor || !failure) {
        store.reminders.drop(reminder);
        continue;
      }
      if (!store.reminders.advance(reminder, nextReminderAt(now, reminder.remind_every_hours)!)) continue;
      // In maintenance a monitor raises nothing: this reminder is skipped, the next one still comes.
      if (inMaintenance({ store }, monitor, now)) continue;
      // Nor while what it tells again still waits to be sent there: it would arrive beside it, saying the same.
      if (store.reminders.stillWaiting(reminder)) continue;
      const alert = stillFailingAlert(failure.alert, now, reasonDataOf(monitor), monitor.failed_at);
      const notification = store.notifications.create({
        companyId: monitor.company_id,
        type: NOTIFICATION_KINDS.monitorStillFailing.type,
        data: stillFailingData({ ...monitor, reason: reasonDataOf(monitor) }),
        alert,
        now,
        channelIds: [reminder.channel_id],
      });
      store.reminders.told(reminder, notification.id);
      made.push({ companyId: monitor.company_id, notificationId: notification.id });
    }
    return made;
  })();
  for (const { companyId, notificationId } of sent) events.emit({ type: 'notification.created', companyId, notificationId });
  return sent.length;
}
