import { uuidV7 } from './uuidV7';
import type { Db } from './open';
import {
  NOTIFIABLE_TYPE,
  NOTIFICATION_KINDS,
  REPORT_NOTIFICATION_TYPE,
  SPEC_NOTIFICATION_TYPES,
  type NotificationData,
  type NotificationFilter,
} from '../domain/alerts/notificationKinds';
import { RETRY_FOR_MS } from '../domain/channels/delivery';
import type { DeliveryRepository } from './deliveries';
import type { Alert } from '../domain/alerts/alert';

export interface NotificationRow {
  id: string;
  type: string;
  notifiable_type: string;
  notifiable_id: number;
  data: NotificationData;
  /**
   * The alert as data: why, about what, the run. Channels and popups render their words from it,
   * and `data`'s words were made from it when the notification was written. Every row has one
   * (notifications written before reasons were data got theirs, their words as they were, by a migration).
   */
  alert: Alert;
  read_at: number | null;
  created_at: number;
  updated_at: number;
}

type StoredRow = Omit<NotificationRow, 'data' | 'alert'> & { data: string; alert: string };

function decode(row: StoredRow): NotificationRow {
  return { ...row, data: JSON.parse(row.data) as NotificationData, alert: JSON.parse(row.alert) as Alert };
}

/** What a new notification is: its kind, the spec's data (its words made from the alert), and the alert as data. */
export interface NewNotification {
  companyId: number;
  type: string;
  data: NotificationData;
  now: number;
  alert: Alert;
  /** The channels it goes to, when not the routed ones (a reminder goes to its one channel). */
  channelIds?: number[];
}

/** A notification as written, and how many deliveries it was given: one per channel it goes to. */
export type CreatedNotification = NotificationRow & { deliveries: number };

/** As SQL literals: the partial index notifications_spec_newest is used only when the query repeats its terms. */
const SPEC_KINDS_SQL = `type IN (${SPEC_NOTIFICATION_TYPES.map((type) => `'${type.replace(/'/g, "''")}'`).join(', ')})`;

/** Reports (agent/db/reports.ts) go to their channel and are never listed. */
const NOT_REPORTS_SQL = `type != '${REPORT_NOTIFICATION_TYPE.replace(/'/g, "''")}'`;

/** What the partial index notifications_done holds (migration 36): those that may be done with. */
const DONE_TERMS = `(read_at IS NOT NULL OR type = '${REPORT_NOTIFICATION_TYPE.replace(/'/g, "''")}')`;

/** A monitor's failure and recovery wait for their popup (agent/db/popupOutbox.ts). */
const POPUP_KINDS_SQL = [NOTIFICATION_KINDS.monitorFailed.type, NOTIFICATION_KINDS.monitorRecovered.type].map((type) => `'${type.replace(/'/g, "''")}'`).join(', ');

/** Where pruning goes on: the last notification it looked at. */
export interface PruneCursor {
  createdAt: number;
  id: string;
}

/** What the partial index notifications_unread holds (migration 31): unread notifications, reports left out. */
const UNREAD_TERMS = ['read_at IS NULL', NOT_REPORTS_SQL];

/** The WHERE terms of a filter besides the company; unread ones repeat the index's terms, as SQLite needs to use it. */
export function filterSql({ kinds, unread }: NotificationFilter): string {
  const terms = [kinds === 'spec' ? SPEC_KINDS_SQL : NOT_REPORTS_SQL];
  if (unread) terms.push(...UNREAD_TERMS.filter((term) => !terms.includes(term)));
  return terms.map((t) => ` AND ${t}`).join('');
}

const FILTERS: NotificationFilter[] = [
  { kinds: 'spec', unread: false },
  { kinds: 'all', unread: false },
  { kinds: 'spec', unread: true },
  { kinds: 'all', unread: true },
];
const filterKey = (f: NotificationFilter) => `${f.kinds}:${f.unread ? 'unread' : 'any'}`;

/**
 * Notifications of a company, newest first; they outlive the monitors and servers they mention.
 * Each is written with its deliveries to the company's channels (the outbox), in one transaction.
 */
export function notificationRepository(db: Db, deliveries: Pick<DeliveryRepository, 'enqueue'>) {
  // Bound by position (boundByPosition in rows.ts): a burst writes 10,000 of them.
  const insert = db.prepare(
    `INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, alert, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const findOwned = db.prepare('SELECT * FROM notifications WHERE id = ? AND notifiable_id = ?');
  // A page of a digest's alerts (agent/engine/delivery/digests.ts), in the order they came: one query, not one per alert.
  const digestPage = db.prepare(
    `SELECT d.id AS delivery_id, n.* FROM deliveries d JOIN notifications n ON n.id = d.notification_id
     WHERE d.folded_into = @leadId AND d.id > @after AND n.notifiable_id = @companyId ORDER BY d.id LIMIT @limit`,
  );
  const lastRowid = db.prepare('SELECT max(rowid) FROM notifications').pluck();
  // One statement of each kind per filter, prepared once.
  const byFilter = new Map(
    FILTERS.map((filter) => {
      const where = `notifiable_id = @companyId${filterSql(filter)}`;
      return [
        filterKey(filter),
        {
          count: db.prepare(`SELECT count(*) FROM notifications WHERE ${where}`).pluck(),
          // NOT INDEXED: walk only the rows after the rowid, never the company's whole index.
          countAfter: db.prepare(
            `SELECT count(*) AS added, max(rowid) AS last FROM notifications NOT INDEXED WHERE ${where} AND rowid > @after`,
          ),
          page: db.prepare(
            `SELECT * FROM notifications WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
          ),
        },
      ];
    }),
  );
  const statements = (filter: NotificationFilter) => byFilter.get(filterKey(filter))!;
  const counted = new Map<string, { total: number; lastRowid: number }>();
  const countAfresh = db.transaction((companyId: number, filter: NotificationFilter) => ({
    total: statements(filter).count.get({ companyId }) as number,
    lastRowid: (lastRowid.get() as number | null) ?? 0,
  }));
  const writeWithDeliveries = (input: NewNotification): CreatedNotification => {
    const id = uuidV7(input.now);
    const { companyId, type, data, now } = input;
    const { alert } = input;
    insert.run(id, type, NOTIFIABLE_TYPE, companyId, JSON.stringify(data), JSON.stringify(alert), now, now);
    const enqueued = deliveries.enqueue({ id, companyId, data, now, giveUpAt: now + RETRY_FOR_MS, channelIds: input.channelIds, alert });
    // The row as written, not read back: a burst writes 10,000 of them in a second.
    return { id, type, notifiable_type: NOTIFIABLE_TYPE, notifiable_id: companyId, data, alert, read_at: null, created_at: now, updated_at: now, deliveries: enqueued };
  };
  const createWithDeliveries = db.transaction(writeWithDeliveries);
  const setRead = db.prepare(
    `UPDATE notifications SET read_at = CASE WHEN @read THEN coalesce(read_at, @now) ELSE NULL END,
       updated_at = CASE WHEN (read_at IS NULL) = @read THEN @now ELSE updated_at END
     WHERE id = @id AND notifiable_id = @companyId`,
  );
  // Pruning (agent/engine/notificationPruning.ts) walks the notifications that may be done with
  // (the partial index notifications_done, whose terms the query repeats), oldest first, from a cursor.
  const pruneScan = db.prepare(
    `SELECT id, created_at AS createdAt,
       (popup_shown_at IS NOT NULL OR type NOT IN (${POPUP_KINDS_SQL}))
       AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.notification_id = n.id AND d.status IN ('pending', 'sending'))
       AND n.id NOT IN (SELECT notification_id FROM reminders) AS done
     FROM notifications n
     WHERE notifiable_id = @companyId AND ${DONE_TERMS} AND created_at < @before
       AND (created_at > @afterAt OR (created_at = @afterAt AND id > @afterId))
     ORDER BY created_at, id LIMIT @limit`,
  );
  const oldestKept = db
    .prepare(`SELECT created_at FROM notifications WHERE notifiable_id = ? ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?`)
    .pluck();
  const dropDeliveries = db.prepare('DELETE FROM deliveries WHERE notification_id = ?');
  const drop = db.prepare('DELETE FROM notifications WHERE id = ?');
  // What is done with is read and deleted in one transaction: another process (the CLI) may write between two.
  const pruneBatch = db.transaction((params: { companyId: number; before: number; afterAt: number; afterId: string; limit: number }) => {
    const rows = pruneScan.all(params) as Array<{ id: string; createdAt: number; done: number }>;
    const ids = rows.filter((row) => row.done).map((row) => row.id);
    for (const id of ids) {
      dropDeliveries.run(id);
      drop.run(id);
    }
    return { rows, pruned: ids.length };
  });
  const readAll = db.prepare(
    `UPDATE notifications SET read_at = @now, updated_at = @now WHERE notifiable_id = @companyId AND ${UNREAD_TERMS.join(' AND ')}`,
  );

  return {
    /** Writes the notification with its deliveries, in one transaction (the caller's, when it has one). */
    create(input: NewNotification): CreatedNotification {
      // No savepoint inside the caller's transaction: nothing retries a part of it.
      return db.inTransaction ? writeWithDeliveries(input) : createWithDeliveries(input);
    },
    /**
     * How many notifications of the company the filter lists. Counting a million index entries
     * takes tens of milliseconds, and the list asks on every page, so a total of all notifications
     * (read or not) is remembered with the last rowid it covers and brought up to date by counting
     * only newer rows (notifications never change kind, and rowids only grow; only pruning deletes
     * them, and it forgets what was remembered). Unread counts change when one is read, so they are counted afresh, from the partial
     * index of unread ones alone (about 50 ms at a million). Inside a transaction, which may still
     * roll back, it counts afresh and remembers nothing.
     */
    count(companyId: number, filter: NotificationFilter = { kinds: 'all', unread: false }): number {
      const { count, countAfter } = statements(filter);
      if (filter.unread || db.inTransaction) return count.get({ companyId }) as number;
      const key = `${companyId}:${filterKey(filter)}`;
      const known = counted.get(key);
      if (!known) {
        const fresh = countAfresh(companyId, filter);
        counted.set(key, fresh);
        return fresh.total;
      }
      const { added, last } = countAfter.get({ companyId, after: known.lastRowid }) as { added: number; last: number | null };
      if (added > 0) counted.set(key, { total: known.total + added, lastRowid: last ?? known.lastRowid });
      return known.total + added;
    },
    page(
      companyId: number,
      limit: number,
      offset: number,
      filter: NotificationFilter = { kinds: 'all', unread: false },
    ): NotificationRow[] {
      return (statements(filter).page.all({ companyId, limit, offset }) as StoredRow[]).map(decode);
    },
    /** The company's notification, or null. */
    find(companyId: number, id: string): NotificationRow | null {
      const row = findOwned.get(id, companyId) as StoredRow | undefined;
      return row ? decode(row) : null;
    },
    /**
     * The company's notifications folded into the digest led by delivery `leadId`, after delivery
     * `afterDeliveryId`, in the order they came, at most `limit`; `lastDeliveryId` is where the next page starts
     * (null: there is none).
     */
    digestPage(companyId: number, leadId: number, afterDeliveryId: number, limit: number): { rows: NotificationRow[]; lastDeliveryId: number | null } {
      const found = digestPage.all({ companyId, leadId, after: afterDeliveryId, limit }) as Array<StoredRow & { delivery_id: number }>;
      const rows = found.map(({ delivery_id: _, ...row }) => decode(row));
      return { rows, lastDeliveryId: found.length < limit ? null : found[found.length - 1]!.delivery_id };
    },
    /**
     * Marks one notification read (keeping the first read time) or unread; null when the company
     * has no such notification.
     */
    setRead(companyId: number, id: string, read: boolean, now: number): NotificationRow | null {
      if (setRead.run({ companyId, id, read: read ? 1 : 0, now }).changes === 0) return null;
      return decode(findOwned.get(id, companyId) as StoredRow);
    },
    /** The creation time of the company's `nth` newest notification (1: the newest); null when it has fewer. */
    createdAtOfNth(companyId: number, nth: number): number | null {
      return (oldestKept.get(companyId, nth - 1) as number | undefined) ?? null;
    },
    /**
     * Deletes, with their deliveries, the company's notifications created before `before` that are
     * done with (read or a report; every delivery sent or given up; a monitor's popup shown; no
     * reminder repeating it), looking at no more than `limit` of those read, oldest first, after
     * `cursor`. Returns how many went and where the next call starts (null: none left to look at).
     */
    pruneDone(companyId: number, before: number, cursor: PruneCursor | null, limit: number): { pruned: number; next: PruneCursor | null } {
      const after = cursor ?? { createdAt: -Infinity, id: '' };
      const { rows, pruned } = pruneBatch({ companyId, before, afterAt: after.createdAt, afterId: after.id, limit });
      if (pruned > 0) counted.clear(); // the remembered totals count rows that are gone
      const last = rows[rows.length - 1];
      return { pruned, next: rows.length < limit || !last ? null : { createdAt: last.createdAt, id: last.id } };
    },
    /** Marks every unread notification of the company read; returns how many. */
    markAllRead(companyId: number, now: number): number {
      return readAll.run({ companyId, now }).changes;
    },
  };
}
