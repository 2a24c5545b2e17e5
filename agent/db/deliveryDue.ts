import type { Db } from './open';

/**
 * Which deliveries the worker sends next, and when it next has something to do
 * (agent/engine/delivery/worker.ts). Part of the deliveries repository.
 */
/** `Row` is a delivery's row (DeliveryRow, which deliveries.ts declares). */
export function deliveryDue<Row>(db: Db) {
  // The oldest due delivery of each channel not busy: one index probe per channel, however many
  // deliveries wait behind a slow one. Companies take the send slots in turns, the one with the
  // fewest sends on the wire first: another company's many hanging channels, whose retries are
  // always older, would otherwise hold every slot ahead of this one's alerts for as long as they hang.
  const due = db.prepare(
    `WITH sending AS (
       SELECT sc.company_id, count(*) AS n FROM deliveries s INDEXED BY deliveries_sending JOIN channels sc ON sc.id = s.channel_id
       WHERE s.status = 'sending' GROUP BY sc.company_id)
     SELECT d.* FROM channels c
     JOIN deliveries d ON d.id = (
       SELECT id FROM deliveries WHERE channel_id = c.id AND status = 'pending' AND next_attempt_at <= @now
       ORDER BY next_attempt_at, id LIMIT 1)
     LEFT JOIN sending ON sending.company_id = c.company_id
     WHERE c.id NOT IN (SELECT value FROM json_each(@busy))
     ORDER BY coalesce(sending.n, 0) + row_number() OVER (PARTITION BY c.company_id ORDER BY d.next_attempt_at, d.id), d.next_attempt_at, d.id
     LIMIT @limit`,
  );
  // Channels busy in this process are left out: their next delivery waits for the send in flight.
  const earliest = db
    .prepare(
      `SELECT min(min(
         coalesce((SELECT min(next_attempt_at) FROM deliveries WHERE channel_id = c.id AND status = 'pending'), 1e18),
         coalesce((SELECT min(next_attempt_at) FROM deliveries WHERE channel_id = c.id AND status = 'sending'), 1e18)))
       FROM channels c WHERE c.id NOT IN (SELECT value FROM json_each(@busy))`,
    )
    .pluck();
  return {
    /**
     * The oldest pending delivery due at `now` of each channel not in `busyChannelIds`, at most
     * `limit`: oldest first within a company, and the companies in turns, fewest sends on the wire first.
     */
    due(now: number, limit: number, busyChannelIds: number[] = []): Row[] {
      return due.all({ now, limit, busy: JSON.stringify(busyChannelIds) }) as Row[];
    },
    /**
     * When the worker next has something to do for a channel not in `busyChannelIds`: a pending
     * delivery comes due, or a claim ends; null when there is nothing.
     */
    earliestDue(busyChannelIds: number[] = []): number | null {
      const at = earliest.get({ busy: JSON.stringify(busyChannelIds) }) as number | null | undefined;
      return at === null || at === undefined || at >= 1e18 ? null : at;
    },
  };
}
