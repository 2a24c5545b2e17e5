import { randomUUID } from 'node:crypto';
import type { Db } from './open';
import { NOTIFIABLE_TYPE, type NotificationData } from '../domain/notificationKinds';
import { RETRY_FOR_MS } from '../domain/delivery';
import type { DeliveryRepository } from './deliveries';

export interface NotificationRow {
  id: string;
  type: string;
  notifiable_type: string;
  notifiable_id: number;
  data: NotificationData;
  read_at: number | null;
  created_at: number;
  updated_at: number;
}

type StoredRow = Omit<NotificationRow, 'data'> & { data: string };

function decode(row: StoredRow): NotificationRow {
  return { ...row, data: JSON.parse(row.data) as NotificationData };
}

/**
 * Notifications of a company, newest first; they outlive the monitors and servers they mention.
 * Each is written with its deliveries to the company's channels (the outbox), in one transaction.
 */
export function notificationRepository(db: Db, deliveries: Pick<DeliveryRepository, 'enqueue'>) {
  const insert = db.prepare(
    `INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, created_at, updated_at)
     VALUES (@id, @type, @notifiableType, @companyId, @data, @now, @now)`,
  );
  const find = db.prepare('SELECT * FROM notifications WHERE id = ?');
  const count = db.prepare('SELECT count(*) FROM notifications WHERE notifiable_id = ?').pluck();
  const lastRowid = db.prepare('SELECT max(rowid) FROM notifications').pluck();
  const countAfter = db.prepare(
    // NOT INDEXED: walk only the rows after the rowid, never the company's whole index.
    'SELECT count(*) AS added, max(rowid) AS last FROM notifications NOT INDEXED WHERE notifiable_id = ? AND rowid > ?',
  );
  const counted = new Map<number, { total: number; lastRowid: number }>();
  const countAfresh = db.transaction((companyId: number) => ({
    total: count.get(companyId) as number,
    lastRowid: (lastRowid.get() as number | null) ?? 0,
  }));
  const createWithDeliveries = db.transaction(
    (input: { companyId: number; type: string; data: NotificationData; now: number }): NotificationRow => {
      const id = randomUUID();
      insert.run({ ...input, id, notifiableType: NOTIFIABLE_TYPE, data: JSON.stringify(input.data) });
      deliveries.enqueue({ id, companyId: input.companyId, data: input.data, now: input.now, giveUpAt: input.now + RETRY_FOR_MS });
      return decode(find.get(id) as StoredRow);
    },
  );
  const page = db.prepare(
    `SELECT * FROM notifications WHERE notifiable_id = @companyId
     ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
  );

  return {
    create(input: { companyId: number; type: string; data: NotificationData; now: number }): NotificationRow {
      return createWithDeliveries(input);
    },
    find(id: string): NotificationRow | null {
      const row = find.get(id) as StoredRow | undefined;
      return row ? decode(row) : null;
    },
    /**
     * How many notifications the company has. Counting a million index entries takes tens of
     * milliseconds, and the list asks on every page, so the total is remembered with the last
     * rowid it covers and brought up to date by counting only newer rows (notifications are
     * never deleted, so rowids only grow). Inside a transaction, which may still roll back,
     * it counts afresh and remembers nothing.
     */
    count(companyId: number): number {
      if (db.inTransaction) return count.get(companyId) as number;
      const known = counted.get(companyId);
      if (!known) {
        const fresh = countAfresh(companyId);
        counted.set(companyId, fresh);
        return fresh.total;
      }
      const { added, last } = countAfter.get(companyId, known.lastRowid) as { added: number; last: number | null };
      if (added > 0) counted.set(companyId, { total: known.total + added, lastRowid: last ?? known.lastRowid });
      return known.total + added;
    },
    page(companyId: number, limit: number, offset: number): NotificationRow[] {
      return (page.all({ companyId, limit, offset }) as StoredRow[]).map(decode);
    },
  };
}
