import type { Db } from './open';
import type { CronChange } from '../domain/servers/jobChanges';

export interface ServerAlertRow {
  id: number;
  company_id: number;
  server_id: number;
  username: string;
  command: string;
  change: CronChange;
  previous_command: string | null;
  created_at: number;
  /** The client's Idempotency-Key, when it sent one. */
  idempotency_key: string | null;
  /** The notification it raised (null for alerts stored before it was kept). */
  notification_id: string | null;
}

export interface NewServerAlert {
  companyId: number;
  serverId: number;
  username: string;
  command: string;
  change: CronChange;
  previousCommand: string | null;
  now: number;
  idempotencyKey: string | null;
  notificationId: string;
}

/** Alerts a server's watcher sent about cron commands that were added, removed or altered. */
export function serverAlertRepository(db: Db) {
  const insert = db.prepare(
    `INSERT INTO server_alerts (company_id, server_id, username, command, change, previous_command, created_at, idempotency_key, notification_id)
     VALUES (@companyId, @serverId, @username, @command, @change, @previousCommand, @now, @idempotencyKey, @notificationId)`,
  );
  const withKey = db.prepare('SELECT * FROM server_alerts WHERE server_id = ? AND idempotency_key = ?');
  const find = db.prepare('SELECT * FROM server_alerts WHERE id = ?');
  const forServer = db.prepare(
    'SELECT * FROM server_alerts WHERE server_id = ? AND company_id = ? ORDER BY created_at DESC, id DESC LIMIT ?',
  );

  return {
    /** The alert `serverId`'s watcher sent with this Idempotency-Key, if any. */
    withKey(serverId: number, key: string): ServerAlertRow | undefined {
      return withKey.get(serverId, key) as ServerAlertRow | undefined;
    },
    create(input: NewServerAlert): ServerAlertRow {
      const { lastInsertRowid } = insert.run(input);
      return find.get(lastInsertRowid) as ServerAlertRow;
    },
    /** The newest alerts of one server, newest first. */
    listForServer(companyId: number, serverId: number, limit = 100): ServerAlertRow[] {
      return forServer.all(serverId, companyId, limit) as ServerAlertRow[];
    },
  };
}
