import type { Db } from './open';
import type { ChannelKind } from '../domain/channels';
import { deliveryRouting, type DeliveryRoutingRepos } from './deliveryRouting';
import type { NotificationData } from '../domain/notificationKinds';
import type { DeliveryStatus } from '../contract/notifications';

/*
 * The delivery outbox (migration 8): one row per notification and channel, written in the
 * notification's transaction. A row is pending (next_attempt_at says when), then claimed
 * ("sending", attempts + 1) before anything is sent, then sent or, after retries until
 * give_up_at, failed. A row still "sending" at start was interrupted by a crash: it goes back to
 * pending, so that send is repeated (at least once: see docs/channels.md, "Delivery guarantees").
 */

export type { DeliveryStatus };

export interface DeliveryRow {
  id: number;
  notification_id: string;
  channel_id: number;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number | null;
  give_up_at: number;
  last_attempt_at: number | null;
  last_error: string | null;
  response_status: number | null;
  response_body: string | null;
  sent_at: number | null;
  created_at: number;
}

/** A delivery as the API lists it: with the channel it went to. */
export interface DeliveryWithChannel extends DeliveryRow {
  channel_name: string;
  channel_kind: ChannelKind;
  channel_deleted: number;
}

/** What one attempt brought back from the receiver (bounded by the caller). */
export interface AttemptAnswer {
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
}

export function deliveryRepository(db: Db, routing: DeliveryRoutingRepos) {
  const insert = db.prepare(
    `INSERT INTO deliveries (notification_id, channel_id, status, next_attempt_at, give_up_at, created_at)
     VALUES (@notificationId, @channelId, 'pending', @now, @giveUpAt, @now)`,
  );
  // The oldest due delivery of each channel not busy: one index probe per channel, however many
  // deliveries wait behind a slow one.
  const due = db.prepare(
    `SELECT d.* FROM channels c
     JOIN deliveries d ON d.id = (
       SELECT id FROM deliveries WHERE channel_id = c.id AND status = 'pending' AND next_attempt_at <= @now
       ORDER BY next_attempt_at, id LIMIT 1)
     WHERE c.id NOT IN (SELECT value FROM json_each(@busy))
     ORDER BY d.next_attempt_at, d.id LIMIT @limit`,
  );
  const earliest = db
    .prepare(
      `SELECT min((SELECT min(next_attempt_at) FROM deliveries WHERE channel_id = c.id AND status = 'pending')) FROM channels c`,
    )
    .pluck();
  const claim = db.prepare(
    `UPDATE deliveries SET status = 'sending', attempts = attempts + 1, last_attempt_at = @now, next_attempt_at = NULL
     WHERE id = @id AND status = 'pending' AND next_attempt_at <= @now`,
  );
  const markSent = db.prepare(
    `UPDATE deliveries SET status = 'sent', sent_at = @now, last_error = NULL,
       response_status = @responseStatus, response_body = @responseBody
     WHERE id = @id AND status = 'sending'`,
  );
  const markUnsent = db.prepare(
    `UPDATE deliveries SET status = @status, next_attempt_at = @nextAttemptAt, last_error = @error,
       response_status = @responseStatus, response_body = @responseBody
     WHERE id = @id AND status = 'sending'`,
  );
  const defer = db.prepare(
    `UPDATE deliveries SET next_attempt_at = @until, give_up_at = max(give_up_at, @giveUpAt)
     WHERE id = @id AND status = 'pending'`,
  );
  const dropForChannel = db.prepare(
    `UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, last_error = @error
     WHERE id = @id AND status = 'pending'`,
  );
  const releaseInterrupted = db.prepare(
    `UPDATE deliveries SET status = 'pending', next_attempt_at = @now WHERE status = 'sending'`,
  );
  const forNotification = db.prepare(
    `SELECT d.*, c.name AS channel_name, c.kind AS channel_kind, c.deleted_at IS NOT NULL AS channel_deleted
     FROM deliveries d JOIN channels c ON c.id = d.channel_id
     WHERE d.notification_id = ? ORDER BY d.id`,
  );
  const route = deliveryRouting(routing);

  return {
    /**
     * Writes a delivery for each channel the notification goes to (see deliveryRouting). Call it
     * in the notification's transaction. Returns how many.
     */
    enqueue(notification: { id: string; companyId: number; data: NotificationData; now: number; giveUpAt: number }): number {
      const channelIds = route(notification.companyId, notification.data);
      for (const channelId of channelIds) {
        insert.run({ notificationId: notification.id, channelId, now: notification.now, giveUpAt: notification.giveUpAt });
      }
      return channelIds.length;
    },
    /** The oldest pending delivery due at `now` of each channel not in `busyChannelIds`, oldest first, at most `limit`. */
    due(now: number, limit: number, busyChannelIds: number[] = []): DeliveryRow[] {
      return due.all({ now, limit, busy: JSON.stringify(busyChannelIds) }) as DeliveryRow[];
    },
    /** When the earliest pending delivery is due; null when none is pending. */
    earliestDue(): number | null {
      return (earliest.get() as number | null) ?? null;
    },
    /** Takes the delivery for one attempt; true only for the one caller that may now send it. */
    claim(id: number, now: number): boolean {
      return claim.run({ id, now }).changes === 1;
    },
    markSent(id: number, now: number, answer: AttemptAnswer): void {
      markSent.run({ id, now, responseStatus: answer.responseStatus, responseBody: answer.responseBody });
    },
    /** The attempt failed: pending again at `nextAttemptAt`, or failed for good when that is null. */
    markUnsent(id: number, nextAttemptAt: number | null, answer: AttemptAnswer): void {
      markUnsent.run({
        id,
        status: nextAttemptAt === null ? 'failed' : 'pending',
        nextAttemptAt,
        error: answer.error,
        responseStatus: answer.responseStatus,
        responseBody: answer.responseBody,
      });
    },
    /** Holds a pending delivery until `until` (quiet hours), retrying for as long after as before. */
    defer(id: number, until: number, giveUpAt: number): void {
      defer.run({ id, until, giveUpAt });
    },
    /** A pending delivery that can never be sent (its channel was deleted). */
    drop(id: number, error: string): void {
      dropForChannel.run({ id, error });
    },
    /** After a crash: deliveries left "sending" are pending again, due at `now`. Returns how many. */
    releaseInterrupted(now: number): number {
      return releaseInterrupted.run({ now }).changes;
    },
    forNotification(notificationId: string): DeliveryWithChannel[] {
      return forNotification.all(notificationId) as DeliveryWithChannel[];
    },
  };
}

export type DeliveryRepository = ReturnType<typeof deliveryRepository>;
