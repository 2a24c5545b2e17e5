import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deliveryOrder } from '../../agent/db/deliveryOrder';
import { openDatabase, type Db } from '../../agent/db/open';
import { tempDir } from '../helpers/testAgent';

/*
 * The order check before every send (a new alert never overtakes one its channel is retrying)
 * reads the channel's deliveries waiting to be tried again, not every pending alert of it: over
 * a burst's 10,000 fresh alerts a channel it read them all, up to 22 ms a send with the event
 * loop held (docs/performance.md, "the drain, measured"). What it costs is the bench's to say; here,
 * that the index it is forced through (INDEXED BY) holds what the check asks for, in every case
 * the check tells apart. Its answers end to end are test/engine/delivery/order's.
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

describe('the order check before a send', () => {
  it('finds the alert its channel is retrying behind a burst of fresh ones, and nothing where none is retrying', () => {
    db = openDatabase(join(tempDir(), 'order.db'));
    db.exec(`INSERT INTO companies (id, name, created_at) VALUES (1, 'c', 0);
      INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, created_at, updated_at) VALUES ('n', 't', 'c', 1, '{}', 0, 0);`);
    const order = deliveryOrder<Row>(db);
    const behindBurst = channelWithBurst(db, 1, 3_000);
    const behindFew = channelWithBurst(db, 2, 3);

    // The alert backing off is older than the newest fresh one, which waits for it.
    expect(order.olderRetrying(behindBurst, true)).toMatchObject({ channel_id: 1, attempts: 1 });
    expect(order.olderRetrying(behindFew, true)).toMatchObject({ channel_id: 2, attempts: 1 });

    // Once it is sent, no longer pending, no alert of the channel waits for another.
    db.prepare("UPDATE deliveries SET status = 'sent' WHERE attempts > 0").run();
    expect(order.olderRetrying(behindBurst, true)).toBeNull();
    expect(order.olderRetrying(behindFew, true)).toBeNull();
  });
});
