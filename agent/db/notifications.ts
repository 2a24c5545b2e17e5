import { randomUUID } from 'node:crypto';
import type { Db } from './open';
import { NOTIFIABLE_TYPE, type NotificationData } from '../domain/notificationKinds';

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

/** Notifications of a company, newest first; they outlive the monitors and servers they mention. */
export function notificationRepository(db: Db) {
  const insert = db.prepare(
    `INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, created_at, updated_at)
     VALUES (@id, @type, @notifiableType, @companyId, @data, @now, @now)`,
  );
  const find = db.prepare('SELECT * FROM notifications WHERE id = ?');
  const count = db.prepare('SELECT count(*) FROM notifications WHERE notifiable_id = ?').pluck();
  const page = db.prepare(
    `SELECT * FROM notifications WHERE notifiable_id = @companyId
     ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
  );

  return {
    create(input: { companyId: number; type: string; data: NotificationData; now: number }): NotificationRow {
      const id = randomUUID();
      insert.run({ ...input, id, notifiableType: NOTIFIABLE_TYPE, data: JSON.stringify(input.data) });
      return decode(find.get(id) as StoredRow);
    },
    count(companyId: number): number {
      return count.get(companyId) as number;
    },
    page(companyId: number, limit: number, offset: number): NotificationRow[] {
      return (page.all({ companyId, limit, offset }) as StoredRow[]).map(decode);
    },
  };
}
