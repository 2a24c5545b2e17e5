import type { Db } from './open';

export interface ServerAlertRow {
  id: number;
  company_id: number;
  server_id: number;
  username: string;
  command: string;
  created_at: number;
}

/** Alerts a server's watcher sent about cron commands that were added, removed or altered. */
export function serverAlertRepository(db: Db) {
  const insert = db.prepare(
    `INSERT INTO server_alerts (company_id, server_id, username, command, created_at)
     VALUES (@companyId, @serverId, @username, @command, @now)`,
  );
  const find = db.prepare('SELECT * FROM server_alerts WHERE id = ?');
  const forServer = db.prepare(
    'SELECT * FROM server_alerts WHERE server_id = ? AND company_id = ? ORDER BY created_at DESC, id DESC LIMIT ?',
  );

  return {
    create(input: { companyId: number; serverId: number; username: string; command: string; now: number }): ServerAlertRow {
      const { lastInsertRowid } = insert.run(input);
      return find.get(lastInsertRowid) as ServerAlertRow;
    },
    /** The newest alerts of one server, newest first. */
    listForServer(companyId: number, serverId: number, limit = 100): ServerAlertRow[] {
      return forServer.all(serverId, companyId, limit) as ServerAlertRow[];
    },
  };
}
