import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { deliveryOrder } from '../../agent/db/deliveryOrder';
import { openDatabase, type Db } from '../../agent/db/open';
import { tempDir } from '../helpers/testAgent';

/*
 * The order check before every send (a new alert never overtakes one its channel is retrying)
 * reads the channel's deliveries waiting to be tried again, not every pending alert of it: over
 * a burst's 10,000 fresh alerts a channel it read them all, up to 22 ms a send with the event
 * loop held (docs/performance.md, "the drain, measured"). Its answers are test/engine/delivery/order's.
 */

interface Row {
  id: number;
  channel_id: number;
  created_at: number;
  attempts: number;
  next_attempt_at: number | null;
}

let db: Db | undefined;
afterEach(() => db?.close());

/** A channel with one alert backing off (tried once, refused) and then `fresh` alerts never tried: the newest. */
function channelWithBurst(db: Db, channelId: number, fresh: number): Row {
  db.prepare(`INSERT INTO channels (id, company_id, name, kind, settings, created_at, updated_at) VALUES (?, 1, ?, 'webhook', '{}', 0, 0)`).run(channelId, `hook ${channelId}`);
  const insert = db.prepare(
    `INSERT INTO deliveries (notification_id, channel_id, status, attempts, next_attempt_at, last_attempt_at, give_up_at, created_at, uuid)
     VALUES ('n', @channelId, 'pending', @attempts, @nextAttemptAt, @lastAttemptAt, 9e12, @createdAt, lower(hex(randomblob(16))))`,
  );
  db.transaction(() => {
    insert.run({ channelId, attempts: 1, nextAttemptAt: 60_000, lastAttemptAt: 1_000, createdAt: 1_000 });
    for (let i = 0; i < fresh; i++) insert.run({ channelId, attempts: 0, nextAttemptAt: 5_000, lastAttemptAt: null, createdAt: 5_000 });
  })();
  return db.prepare('SELECT * FROM deliveries WHERE channel_id = ? ORDER BY id DESC LIMIT 1').get(channelId) as Row;
}

/** The shortest of five rounds of `calls` order checks for `delivery`, in ms. */
function shortestRound(check: () => unknown, calls: number): number {
  let shortest = Infinity;
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    for (let i = 0; i < calls; i++) check();
    shortest = Math.min(shortest, performance.now() - start);
  }
  return shortest;
}

describe('the order check before a send', () => {
  it('costs the same behind 30,000 fresh alerts of its channel as behind 30', () => {
    db = openDatabase(join(tempDir(), 'order.db'));
    db.exec(`INSERT INTO companies (id, name, created_at) VALUES (1, 'c', 0);
      INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, created_at, updated_at) VALUES ('n', 't', 'c', 1, '{}', 0, 0);`);
    const order = deliveryOrder<Row>(db);
    const behindBurst = channelWithBurst(db, 1, 30_000);
    const behindFew = channelWithBurst(db, 2, 30);

    // The answer: the alert backing off, older than the newest fresh one, which waits for it.
    expect(order.olderRetrying(behindBurst, true)).toMatchObject({ channel_id: 1, attempts: 1 });
    expect(order.olderRetrying(behindFew, true)).toMatchObject({ channel_id: 2, attempts: 1 });

    const burstMs = shortestRound(() => order.olderRetrying(behindBurst, true), 50);
    const fewMs = shortestRound(() => order.olderRetrying(behindFew, true), 50);
    // Reading every fresh alert made it some 1,000 times slower; the same rows read, within noise.
    expect(burstMs).toBeLessThan(Math.max(fewMs, 0.5) * 10);
  });
});
