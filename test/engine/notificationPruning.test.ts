import { describe, expect, it } from 'vitest';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import { openStore, type Store } from '../../agent/db/store';
import { NOTIFICATION_KINDS, NOTIFIABLE_TYPE, REPORT_NOTIFICATION_TYPE } from '../../agent/domain/alerts/notificationKinds';
import { NOTIFICATION_RETENTION_DAYS, NOTIFICATIONS_KEPT_PER_COMPANY } from '../../agent/domain/alerts/notificationRetention';
import { startNotificationPruning } from '../../agent/engine/notificationPruning';
import { startTestAgent, tempDir } from '../helpers/testAgent';

/*
 * Notifications were never deleted: every failure, recovery and alert of years stayed in the
 * table, the database and every backup. Those done with (read, delivered, popup shown, no reminder
 * repeating them) now go once 180 days old, or past a company's newest 50,000; an unread or
 * undelivered one stays however old. The agent prunes at start and every hour after, on a timer
 * of its own; the lists keep their shape and their totals.
 */

const NOW = Date.UTC(2026, 10, 28, 12);
const DAY = 24 * 60 * 60 * 1000;
const OLD = NOW - (NOTIFICATION_RETENTION_DAYS + 20) * DAY;
const FAILED = NOTIFICATION_KINDS.monitorFailed.type;
const SERVER = NOTIFICATION_KINDS.serverAlert.type;

interface Seed {
  id: string;
  type?: string;
  companyId?: number;
  createdAt?: number;
  read?: boolean;
  popupShown?: boolean;
  /** The statuses of its deliveries to channel 1. */
  deliveries?: string[];
}

const uuid = (n: number) => `0190f3a0-0000-7000-8000-${String(n).padStart(12, '0')}`;

function seed(store: Store, rows: Seed[]): void {
  const insert = store.db.prepare(
    `INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, alert, read_at, created_at, updated_at, popup_shown_at)
     VALUES (@id, @type, @notifiableType, @companyId, '{}', '{}', @readAt, @createdAt, @createdAt, @popupShownAt)`,
  );
  const delivery = store.db.prepare(
    `INSERT INTO deliveries (uuid, notification_id, channel_id, status, give_up_at, created_at) VALUES (@uuid, @id, 1, @status, @createdAt, @createdAt)`,
  );
  let n = 0;
  for (const row of rows) {
    const createdAt = row.createdAt ?? OLD;
    insert.run({
      id: row.id,
      type: row.type ?? FAILED,
      notifiableType: NOTIFIABLE_TYPE,
      companyId: row.companyId ?? 1,
      readAt: row.read === false ? null : createdAt + 1000,
      createdAt,
      popupShownAt: row.popupShown === false ? null : createdAt,
    });
    for (const status of row.deliveries ?? []) delivery.run({ uuid: uuid(900_000 + n++), id: row.id, status, createdAt });
  }
}

/** A store with a channel and a failed monitor, whose reminder repeats notification `reminded`. */
function storeWithChannel(): { store: Store; dataDir: string } {
  const dataDir = tempDir();
  const store = openStore(databaseFile(dataDir), NOW);
  store.db.exec(`
    INSERT INTO channels (id, company_id, name, kind, settings, created_at, updated_at) VALUES (1, 1, 'hook', 'webhook', '{}', 0, 0);
    INSERT INTO monitors (id, company_id, name, token, timezone, schedule, duration, last_run_at, created_at, updated_at)
      VALUES (1, 1, 'nightly', '11111111-2222-4333-8444-555555555555', 'UTC', '0 3 * * *', 5, 0, 0, 0);`);
  return { store, dataDir };
}

const ids = (store: Store) => store.db.prepare('SELECT id FROM notifications ORDER BY id').pluck().all();

describe('notifications past their retention', () => {
  it('go when done with; an unread, undelivered, unshown or reminded one stays however old', { timeout: 30_000 }, async () => {
    const { store } = storeWithChannel();
    seed(store, [
      { id: uuid(1) }, // read, nothing to send, popup shown: done with
      { id: uuid(2), read: false }, // unread
      { id: uuid(3), deliveries: ['sent', 'pending'] }, // one channel still to send
      { id: uuid(4), deliveries: ['sending'] }, // on the wire
      { id: uuid(5), deliveries: ['sent', 'failed'] }, // sent, and given up: done with
      { id: uuid(6), popupShown: false }, // its popup not shown yet (the agent died first)
      { id: uuid(7) }, // repeated by a reminder
      { id: uuid(8), type: REPORT_NOTIFICATION_TYPE, read: false, deliveries: ['sent'] }, // a report is never read: sent is done
      { id: uuid(9), type: SERVER, popupShown: false }, // a server's alert has no popup outbox
      { id: uuid(10), createdAt: NOW - 10 * DAY }, // young
    ]);
    store.db.prepare('INSERT INTO reminders (monitor_id, channel_id, notification_id, next_at) VALUES (1, 1, ?, ?)').run(uuid(7), NOW + DAY);
    const all = { kinds: 'all', unread: false } as const;
    expect(store.notifications.count(1, all)).toBe(9); // remembered from here (the report is never listed)

    const stop = startNotificationPruning({ store, clock: () => NOW, log: () => {} });
    try {
      await expect.poll(() => ids(store), { timeout: 10_000 }).toEqual([2, 3, 4, 6, 7, 10].map(uuid));
      // Their deliveries went with them; the others' are all there.
      expect(store.db.prepare('SELECT notification_id, status FROM deliveries ORDER BY id').all()).toEqual([
        { notification_id: uuid(3), status: 'sent' },
        { notification_id: uuid(3), status: 'pending' },
        { notification_id: uuid(4), status: 'sending' },
      ]);
      expect(store.notifications.count(1, all)).toBe(6);
    } finally {
      stop();
      store.close();
    }
  });

  it('are pruned by the agent at start, and the list\'s count follows', { timeout: 30_000 }, async () => {
    const { store, dataDir } = storeWithChannel();
    seed(store, [{ id: uuid(1), type: SERVER }, { id: uuid(2), type: SERVER, read: false }]);
    store.close();
    const agent = await startTestAgent({ dataDir, clock: () => NOW });
    try {
      await expect.poll(async () => (await agent.api('/api/notifications/count?kinds=all')).json(), { timeout: 10_000 }).toEqual({ total: 1 });
      expect(ids(agent.store)).toEqual([uuid(2)]);
    } finally {
      await agent.stop();
    }
  });

  it('past a company\'s newest 50,000, go however young, and the remembered totals follow', { timeout: 30_000 }, async () => {
    const { store } = storeWithChannel();
    store.companies.ensure(2, NOW);
    const extra = 3;
    // A day old, a second apart, read and done with: the oldest `extra` are past the newest 50,000.
    store.db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < @count)
         INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, alert, read_at, created_at, updated_at, popup_shown_at)
         SELECT printf('0190f3a0-0000-7000-8000-%012d', i), @type, @notifiableType, 2, '{}', '{}', @at + i * 1000, @at + i * 1000, @at + i * 1000, @at + i * 1000 FROM n`,
      )
      .run({ count: NOTIFICATIONS_KEPT_PER_COMPANY + extra, type: FAILED, notifiableType: NOTIFIABLE_TYPE, at: NOW - DAY });
    seed(store, [{ id: uuid(999_999), companyId: 1 }]); // company 1's old one goes too
    const all = { kinds: 'all', unread: false } as const;
    expect(store.notifications.count(2, all)).toBe(NOTIFICATIONS_KEPT_PER_COMPANY + extra); // remembered from here

    const stop = startNotificationPruning({ store, clock: () => NOW, log: () => {} });
    try {
      await expect.poll(() => store.notifications.count(2, all), { timeout: 10_000 }).toBe(NOTIFICATIONS_KEPT_PER_COMPANY);
      const oldest = store.db.prepare('SELECT min(id) FROM notifications WHERE notifiable_id = 2').pluck().get();
      expect(oldest).toBe(`0190f3a0-0000-7000-8000-${String(extra + 1).padStart(12, '0')}`);
      await expect.poll(() => store.notifications.count(1, all)).toBe(0);
    } finally {
      stop();
      store.close();
    }
  });
});
