import type { Db } from './open';

/** The last report of a server's crontab watcher (POST /api/servers/heartbeat). */
export interface ServerReportRow {
  server_id: number;
  last_report_at: number;
  /** How often the watcher said it reports; null when it did not say. */
  interval_seconds: number | null;
  /** How many cron jobs it watched then. */
  jobs: number | null;
}

export interface NewServerReport {
  serverId: number;
  now: number;
  intervalSeconds: number | null;
  jobs: number | null;
}

export function serverReportRepository(db: Db) {
  const upsert = db.prepare(
    `INSERT INTO server_reports (server_id, last_report_at, interval_seconds, jobs)
     VALUES (@serverId, @now, @intervalSeconds, @jobs)
     ON CONFLICT(server_id) DO UPDATE SET last_report_at = excluded.last_report_at,
       interval_seconds = excluded.interval_seconds, jobs = excluded.jobs`,
  );
  const find = db.prepare('SELECT server_id, last_report_at, interval_seconds, jobs FROM server_reports WHERE server_id = ?');
  const ofCompany = db.prepare(
    `SELECT r.server_id, r.last_report_at, r.interval_seconds, r.jobs FROM server_reports r
     JOIN servers s ON s.id = r.server_id WHERE s.company_id = ? AND s.deleted_at IS NULL`,
  );
  return {
    record(report: NewServerReport): ServerReportRow {
      upsert.run(report);
      return find.get(report.serverId) as ServerReportRow;
    },
    find(serverId: number): ServerReportRow | null {
      return (find.get(serverId) as ServerReportRow | undefined) ?? null;
    },
    /** The reports of a company's live servers, by server id. */
    ofCompany(companyId: number): Map<number, ServerReportRow> {
      return new Map((ofCompany.all(companyId) as ServerReportRow[]).map((row) => [row.server_id, row]));
    },
  };
}
