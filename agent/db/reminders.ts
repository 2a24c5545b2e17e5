import type { Db } from './open';

/** A failure waiting for its next reminder on one channel, with what decides whether it is still due. */
export interface DueReminder {
  monitor_id: number;
  channel_id: number;
  /** The alert it tells again: the failure, then its last reminder. */
  notification_id: string;
  next_at: number;
  company_id: number;
  is_alerted: number;
  paused_at: number | null;
  monitor_deleted: number;
  channel_deleted: number;
  remind_every_hours: number | null;
}

const HOUR = 3_600_000;

/** Reminders: one row per failed monitor and channel that repeats its alert, due at next_at. */
export function reminderRepository(db: Db) {
  // The channels this failure notification was delivered to that repeat alerts, each due N hours from now.
  const plan = db.prepare(
    `INSERT INTO reminders (monitor_id, channel_id, notification_id, next_at)
     SELECT @monitorId, c.id, @notificationId, @now + c.remind_every_hours * ${HOUR}
     FROM deliveries d JOIN channels c ON c.id = d.channel_id
     WHERE d.notification_id = @notificationId AND c.remind_every_hours IS NOT NULL AND c.deleted_at IS NULL
     ON CONFLICT (monitor_id, channel_id) DO UPDATE SET notification_id = excluded.notification_id, next_at = excluded.next_at`,
  );
  const due = db.prepare(
    `SELECT r.monitor_id, r.channel_id, r.notification_id, r.next_at, m.company_id, m.is_alerted, m.paused_at,
            m.deleted_at IS NOT NULL AS monitor_deleted, c.deleted_at IS NOT NULL AS channel_deleted, c.remind_every_hours
     FROM reminders r JOIN monitors m ON m.id = r.monitor_id JOIN channels c ON c.id = r.channel_id
     WHERE r.next_at <= @now ORDER BY r.next_at LIMIT @limit`,
  );
  // Conditional on next_at, so a reminder is taken (sent, or dropped) exactly once.
  const advance = db.prepare(
    'UPDATE reminders SET next_at = @nextAt WHERE monitor_id = @monitorId AND channel_id = @channelId AND next_at = @was',
  );
  const drop = db.prepare('DELETE FROM reminders WHERE monitor_id = @monitorId AND channel_id = @channelId AND next_at = @was');
  const earliest = db.prepare('SELECT min(next_at) FROM reminders').pluck();
  // Over deliveries_by_notification: the alert a reminder tells again, on its channel.
  const waiting = db.prepare(
    `SELECT 1 FROM deliveries WHERE notification_id = @notificationId AND channel_id = @channelId AND status IN ('pending', 'sending') LIMIT 1`,
  );
  const told = db.prepare('UPDATE reminders SET notification_id = @notificationId WHERE monitor_id = @monitorId AND channel_id = @channelId');
  // N hours after the alert each tells again (the failure, or the last reminder), as plan and advance count them.
  const replan = db.prepare(
    `UPDATE reminders SET next_at = coalesce((SELECT created_at FROM notifications WHERE id = reminders.notification_id), next_at) + @hours * ${HOUR}
     WHERE channel_id = @channelId`,
  );

  return {
    /** After a failure notification was written with its deliveries: its reminders, on the channels that repeat. */
    plan(monitorId: number, notificationId: string, now: number): void {
      plan.run({ monitorId, notificationId, now });
    },
    due(now: number, limit: number): DueReminder[] {
      return due.all({ now, limit }) as DueReminder[];
    },
    /** Moves a due reminder to `nextAt`; false when another step took it already. */
    advance(reminder: DueReminder, nextAt: number): boolean {
      return advance.run({ monitorId: reminder.monitor_id, channelId: reminder.channel_id, was: reminder.next_at, nextAt }).changes === 1;
    },
    /** True while the alert the reminder tells again (the failure, or the last reminder) still waits to be sent on its channel. */
    stillWaiting(reminder: DueReminder): boolean {
      return waiting.get({ notificationId: reminder.notification_id, channelId: reminder.channel_id }) !== undefined;
    },
    /** The reminder `notificationId` was written: the next one waits for it to be sent. */
    told(reminder: DueReminder, notificationId: string): void {
      told.run({ monitorId: reminder.monitor_id, channelId: reminder.channel_id, notificationId });
    },
    /** Forgets a reminder that is no longer wanted (recovered, paused, deleted, turned off). */
    drop(reminder: DueReminder): void {
      drop.run({ monitorId: reminder.monitor_id, channelId: reminder.channel_id, was: reminder.next_at });
    },
    /** The channel now repeats alerts every `hours`: its reminders come that long after the alert each tells again. */
    replanChannel(channelId: number, hours: number): void {
      replan.run({ channelId, hours });
    },
    earliestDueAt(): number | null {
      return (earliest.get() as number | null) ?? null;
    },
  };
}
