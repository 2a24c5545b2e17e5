import { uuidV7 } from './uuidV7';
import type { Db } from './open';
import type { ChannelKind } from '../contract/channels';
import { deliveryRouting, type DeliveryRoutingRepos } from './deliveryRouting';
import { deliveryOrder } from './deliveryOrder';
import { deliveryDue } from './deliveryDue';
import { digestSplit } from './digestSplit';
import type { NotificationData } from '../domain/alerts/notificationKinds';
import type { Alert } from '../domain/alerts/alert';
import type { DeliveryStatus } from '../contract/notifications';
import type { ChannelBurst } from '../domain/alerts/digest';

/*
 * The delivery outbox (migration 8): one row per notification and channel, written in the
 * notification's transaction, with a UUID of its own (migration 15) that every retry sends. A row
 * is pending (next_attempt_at says when), then claimed ("sending", attempts + 1, next_attempt_at
 * the end of the claim: the attempt's timeout) before anything is sent, then sent or, after
 * retries until give_up_at, failed. A row still "sending" at start was interrupted by a crash,
 * and one still "sending" after its claim ended lost its result (a full disk): both go back to
 * pending, so that send is repeated (at least once: see docs/channels.md, "Delivery guarantees").
 */

export type { DeliveryStatus };

export interface DeliveryRow {
  id: number;
  /** Sent as X-Cronbeat-Delivery: the same on every retry, unique across data folders. */
  uuid: string;
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
  /** Folded into a digest (migration 17): the id of the digest's lead delivery, which is its own for the lead. */
  folded_into: number | null;
  /** An email's recipients still owed it (a JSON list; migration 33): those its server deferred. Null: the channel's. */
  recipients: string | null;
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
    `INSERT INTO deliveries (uuid, notification_id, channel_id, status, next_attempt_at, give_up_at, created_at)
     VALUES (@uuid, @notificationId, @channelId, 'pending', @now, @giveUpAt, @now)`,
  );
  const claim = db.prepare(
    `UPDATE deliveries SET status = 'sending', attempts = attempts + 1, last_attempt_at = @now, next_attempt_at = @claimEnds
     WHERE id = @id AND status = 'pending' AND next_attempt_at <= @now`,
  );
  const reclaimExpired = db.prepare(
    `UPDATE deliveries SET status = 'pending', next_attempt_at = @now,
       last_error = coalesce(last_error, 'The result of the last attempt could not be recorded; sending again.')
     WHERE status = 'sending' AND next_attempt_at <= @now AND channel_id NOT IN (SELECT value FROM json_each(@busy))`,
  );
  const markSent = db.prepare(
    `UPDATE deliveries SET status = 'sent', sent_at = @now, next_attempt_at = NULL, last_error = NULL,
       response_status = @responseStatus, response_body = @responseBody
     WHERE id = @id AND status = 'sending'`,
  );
  const markUnsent = db.prepare(
    `UPDATE deliveries SET status = @status, next_attempt_at = @nextAttemptAt, last_error = @error,
       response_status = @responseStatus, response_body = @responseBody, recipients = coalesce(@recipients, recipients)
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
  const failPendingOfChannel = db.prepare(
    `UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, last_error = @error
     WHERE channel_id = @channelId AND status = 'pending'`,
  );
  const dueNowForChannel = db.prepare(
    `UPDATE deliveries SET next_attempt_at = @now WHERE channel_id = @channelId AND status = 'pending' AND next_attempt_at > @now`,
  );
  const releaseInterrupted = db.prepare(
    `UPDATE deliveries SET status = 'pending', next_attempt_at = @now WHERE status = 'sending'`,
  );
  const forNotification = db.prepare(
    `SELECT d.*, c.name AS channel_name, c.kind AS channel_kind, c.deleted_at IS NOT NULL AS channel_deleted
     FROM deliveries d JOIN channels c ON c.id = d.channel_id
     WHERE d.notification_id = ? ORDER BY d.id`,
  );
  // Bursts (agent/domain/alerts/digest.ts): a channel's recent messages, its waiting fresh alerts, and folding them into a digest.
  const recentSends = db.prepare(
    `SELECT count(*) AS sends, max(CASE WHEN folded_into = id THEN last_attempt_at END) AS lastDigestAt
     FROM deliveries WHERE channel_id = @channelId AND last_attempt_at >= @since AND (folded_into IS NULL OR folded_into = id)`,
  );
  // Over the partial index deliveries_waiting (migration 22), whose terms the WHERE repeats: a few entries, however long the burst.
  const waiting = db.prepare(
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM deliveries
               WHERE channel_id = @channelId AND status = 'pending' AND attempts = 0 AND folded_into IS NULL LIMIT @countUpTo)) AS waiting,
            (SELECT min(created_at) FROM deliveries
               WHERE channel_id = @channelId AND status = 'pending' AND attempts = 0 AND folded_into IS NULL) AS oldestWaitingAt`,
  );
  // By due time (deliveries_due): the alerts held already are past @until's range, so only new ones are read.
  const holdWaiting = db.prepare(
    `UPDATE deliveries INDEXED BY deliveries_due SET next_attempt_at = @until, give_up_at = max(give_up_at, @until + (give_up_at - created_at))
     WHERE channel_id = @channelId AND status = 'pending' AND attempts = 0 AND folded_into IS NULL AND next_attempt_at < @until`,
  );
  const foldWaiting = db.prepare(
    `UPDATE deliveries SET folded_into = @leadId, next_attempt_at = CASE WHEN id = @leadId THEN next_attempt_at END
     WHERE id IN (SELECT id FROM deliveries
       WHERE channel_id = @channelId AND status = 'pending' AND attempts = 0 AND folded_into IS NULL
       ORDER BY created_at, id LIMIT @limit)`,
  );
  const markLead = db.prepare(`UPDATE deliveries SET folded_into = id WHERE id = @leadId AND folded_into IS NULL`);
  // A page at a time, after the last one (deliveries_folded, in id order): one statement over a burst's 10,000
  // held every pulse for a tenth of a second, and pages without the cursor read past every alert settled before.
  const settleMembers = db
    .prepare(
      `UPDATE deliveries SET status = @status, sent_at = @sentAt, last_error = @error,
         response_status = @responseStatus, response_body = @responseBody
       WHERE id IN (SELECT id FROM deliveries WHERE folded_into = @leadId AND id > @after AND id != @leadId AND status = 'pending' ORDER BY id LIMIT @limit)
       RETURNING id`,
    )
    .pluck();
  // Alerts still waiting on a digest that was settled (the agent stopped while settling them): as their lead.
  // A folded alert waits with no due time (foldWaiting), so deliveries_due finds them per channel.
  const settleLeftOver = db.prepare(
    `UPDATE deliveries SET (status, sent_at, last_error, response_status, response_body) =
       (SELECT l.status, l.sent_at, l.last_error, l.response_status, l.response_body FROM deliveries l WHERE l.id = deliveries.folded_into)
     WHERE id IN (SELECT m.id FROM channels c
       JOIN deliveries m INDEXED BY deliveries_due ON m.channel_id = c.id AND m.status = 'pending' AND m.next_attempt_at IS NULL
       JOIN deliveries l ON l.id = m.folded_into AND l.id != m.id AND l.status IN ('sent', 'failed'))`,
  );
  const route = deliveryRouting(routing);

  return {
    ...deliveryOrder<DeliveryRow>(db),
    ...deliveryDue<DeliveryRow>(db),
    ...digestSplit(db),
    /**
     * Writes a delivery for each channel the notification goes to (`channelIds`, else deliveryRouting). Call it
     * in the notification's transaction. Returns how many.
     */
    enqueue(notification: { id: string; companyId: number; data: NotificationData; now: number; giveUpAt: number; channelIds?: number[]; alert?: Alert }): number {
      // A reminder names its one channel; everything else is routed.
      const channelIds = notification.channelIds ?? route(notification.companyId, notification.data, notification.alert?.reason);
      for (const channelId of channelIds) {
        insert.run({ uuid: uuidV7(notification.now), notificationId: notification.id, channelId, now: notification.now, giveUpAt: notification.giveUpAt });
      }
      return channelIds.length;
    },
    /**
     * Takes the delivery for one attempt that ends by `claimEnds`; true only for the one caller
     * that may now send it.
     */
    claim(id: number, now: number, claimEnds: number): boolean {
      return claim.run({ id, now, claimEnds }).changes === 1;
    },
    /**
     * Claims that ended without a recorded result (the disk was full when it came), of channels
     * not in `busyChannelIds`, are pending again at `now`. Returns how many.
     */
    reclaimExpired(now: number, busyChannelIds: number[] = []): number {
      return reclaimExpired.run({ now, busy: JSON.stringify(busyChannelIds) }).changes;
    },
    markSent(id: number, now: number, answer: AttemptAnswer): void {
      markSent.run({ id, now, responseStatus: answer.responseStatus, responseBody: answer.responseBody });
    },
    /** The attempt failed: pending again at `nextAttemptAt`, or failed for good when that is null. */
    markUnsent(id: number, nextAttemptAt: number | null, answer: AttemptAnswer & { deferred?: string[] }): void {
      markUnsent.run({
        id,
        status: nextAttemptAt === null ? 'failed' : 'pending',
        nextAttemptAt,
        error: answer.error,
        responseStatus: answer.responseStatus,
        responseBody: answer.responseBody,
        recipients: answer.deferred?.length ? JSON.stringify(answer.deferred) : null,
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
    /** The channel was deleted: what still waits for it is failed with `error`. Returns how many. */
    failPendingOfChannel(channelId: number, error: string): number {
      return failPendingOfChannel.run({ channelId, error }).changes;
    },
    /** What waits for the channel (held by quiet hours, or backing off) is due at `now`, to be looked at again. */
    dueNowForChannel(channelId: number, now: number): number {
      return dueNowForChannel.run({ channelId, now }).changes;
    },
    /**
     * After a crash: deliveries left "sending" are pending again, due at `now`, and the alerts of a
     * digest settled before the crash are settled as it was. Returns how many were sending.
     */
    releaseInterrupted(now: number): number {
      settleLeftOver.run();
      return releaseInterrupted.run({ now }).changes;
    },
    /**
     * What a channel sent lately and what waits for it (agent/domain/alerts/digest.ts); the waiting alerts
     * counted up to `countUpTo` (past a few, the burst rule decides the same however many there are).
     */
    burstOf(channelId: number, now: number, windowMs: number, countUpTo: number): ChannelBurst {
      const sent = recentSends.get({ channelId, since: now - windowMs }) as { sends: number; lastDigestAt: number | null };
      const queued = waiting.get({ channelId, countUpTo }) as { waiting: number; oldestWaitingAt: number | null };
      return { recentSends: sent.sends, lastDigestAt: sent.lastDigestAt, waiting: queued.waiting, oldestWaitingAt: queued.oldestWaitingAt ?? now };
    },
    /** Holds all a channel's fresh alerts until `until` (their digest), retrying as long after it. */
    holdWaiting(channelId: number, until: number): void {
      holdWaiting.run({ channelId, until });
    },
    /** Makes `leadId` the lead of a digest (folded into itself), still due: fold() then adds its alerts. */
    markLead(leadId: number): void {
      markLead.run({ leadId });
    },
    /**
     * Folds a channel's fresh alerts (never attempted; at most `limit`, oldest first) into one digest led
     * by `leadId`, which stays due; the others wait, not due, until the lead is settled. Returns how many.
     */
    fold(channelId: number, leadId: number, limit: number): number {
      return foldWaiting.run({ channelId, leadId, limit }).changes;
    },
    /**
     * Settles the alerts folded into a digest as its lead was: sent, or failed for good (a retry leaves
     * them waiting); at most `limit` of them, those after the id `after` (0: from the first). Returns the
     * last one settled, or null when that was the last (or a retry left them waiting).
     */
    settleDigest(leadId: number, outcome: { sentAt: number | null; failed: boolean; answer: AttemptAnswer }, limit: number, after: number): number | null {
      if (outcome.sentAt === null && !outcome.failed) return null;
      const settled = settleMembers.all({
        after,
        limit,
        leadId,
        status: outcome.failed ? 'failed' : 'sent',
        sentAt: outcome.sentAt,
        error: outcome.answer.error,
        responseStatus: outcome.answer.responseStatus,
        responseBody: outcome.answer.responseBody,
      }) as number[];
      return settled.length === limit ? Math.max(...settled) : null;
    },
    forNotification(notificationId: string): DeliveryWithChannel[] {
      return forNotification.all(notificationId) as DeliveryWithChannel[];
    },
  };
}

export type DeliveryRepository = ReturnType<typeof deliveryRepository>;
