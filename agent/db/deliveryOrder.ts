import type { Db } from './open';

/**
 * What keeps a channel's alerts in order (agent/engine/delivery/order.ts): a new alert never
 * overtakes one its channel is retrying. Part of the deliveries repository.
 */
/** `Row` is a delivery's row (DeliveryRow, which deliveries.ts declares). */
export function deliveryOrder<Row extends { id: number; channel_id: number; created_at: number; attempts: number; next_attempt_at: number | null }>(db: Db) {
  // Over deliveries_retrying (the channel's deliveries tried and waiting to be tried again: a burst's
  // fresh alerts are not read; over deliveries_due, 10,000 of them were, per send) and deliveries_recent.
  const olderRetrying = db.prepare(
    `SELECT * FROM deliveries INDEXED BY deliveries_retrying
     WHERE channel_id = @channelId AND status = 'pending' AND next_attempt_at IS NOT NULL AND attempts > 0
       AND id < @id AND last_attempt_at < @since
       AND (@working OR NOT EXISTS (SELECT 1 FROM deliveries WHERE channel_id = @channelId AND last_attempt_at >= @since))
     ORDER BY id LIMIT 1`,
  );
  const bringForward = db.prepare(`UPDATE deliveries SET next_attempt_at = @now WHERE id = @id AND status = 'pending' RETURNING *`);
  return {
    /**
     * The oldest delivery of `delivery`'s channel written before it that is waiting to be tried again
     * (backing off, or due) and was not tried since `delivery` came due (was written, or, tried
     * before, its backoff ended); null when there is none, and when the channel, not `working`, was
     * tried since (its receiver still refuses: one more attempt told that, and more would only hold
     * `delivery` back).
     */
    olderRetrying(delivery: Pick<Row, 'id' | 'channel_id' | 'created_at' | 'attempts' | 'next_attempt_at'>, working: boolean): Row | null {
      const since = delivery.attempts > 0 && delivery.next_attempt_at !== null ? delivery.next_attempt_at : delivery.created_at;
      return (olderRetrying.get({ channelId: delivery.channel_id, id: delivery.id, since, working: working ? 1 : 0 }) as Row | undefined) ?? null;
    },
    /** A pending delivery due at `now` (sooner than its backoff said); null when it is no longer pending. */
    bringForward(id: number, now: number): Row | null {
      return (bringForward.get({ id, now }) as Row | undefined) ?? null;
    },
  };
}
