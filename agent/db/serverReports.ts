import type { Db } from './open';
import type { Outage } from '../domain/monitors/dueTime';
import { quietAfter, quietAfterOutage } from '../domain/servers/quietAfter';

/** The last report of a server's crontab watchers (POST /api/servers/heartbeat). */
export interface ServerReportRow {
  server_id: number;
  last_report_at: number;
  /** How often the watcher said it reports; null when it did not say. */
  interval_seconds: number | null;
  /** How many jobs its watchers watch: the sum of each watcher's last count (server_watchers). */
  jobs: number | null;
  /** The moment it counts as quiet unless it reports again (later than quietAfter's after Cronbeat was down). */
  quiet_alert_at: number;
}

/** A watcher just found quiet (markQuiet): its server and last report. */
export interface QuietReport {
  server_id: number;
  company_id: number;
  last_report_at: number;
  interval_seconds: number | null;
}

export interface NewServerReport {
  serverId: number;
  /** Which of the server's watchers reports (its kind and file set); absent or '' for one that does not say. */
  watcher?: string;
  now: number;
  intervalSeconds: number | null;
  jobs: number | null;
  /** When it counts as quiet unless it reports again (quietAlertAt). */
  quietAlertAt: number;
}

export function serverReportRepository(db: Db) {
  const upsert = db.prepare(
    `INSERT INTO server_reports (server_id, last_report_at, interval_seconds, jobs, quiet_alert_at)
     VALUES (@serverId, @now, @intervalSeconds, @jobs, @quietAlertAt)
     ON CONFLICT(server_id) DO UPDATE SET last_report_at = excluded.last_report_at,
       interval_seconds = excluded.interval_seconds, jobs = excluded.jobs, quiet_alert_at = excluded.quiet_alert_at`,
  );
  // A watcher's part of the count: a report without one (the check at its start) keeps the part it had.
  const upsertPart = db.prepare(
    `INSERT INTO server_watchers (server_id, watcher, jobs, last_report_at, interval_seconds)
     VALUES (@serverId, @watcher, @jobs, @now, @intervalSeconds)
     ON CONFLICT(server_id, watcher) DO UPDATE SET jobs = coalesce(excluded.jobs, jobs),
       last_report_at = excluded.last_report_at, interval_seconds = excluded.interval_seconds`,
  );
  const parts = db.prepare('SELECT watcher, jobs, last_report_at, interval_seconds FROM server_watchers WHERE server_id = ?');
  const dropPart = db.prepare('DELETE FROM server_watchers WHERE server_id = ? AND watcher = ?');
  const before = db.prepare('SELECT quiet_since, last_report_at FROM server_reports WHERE server_id = ?');
  // Conditional on being quiet, so only the first report after a quiet stretch ends it.
  const endQuiet = db.prepare('UPDATE server_reports SET quiet_since = NULL WHERE server_id = ? AND quiet_since IS NOT NULL');
  // Conditional on not being quiet yet, so each quiet stretch is raised exactly once; deleted servers never.
  // EXISTS, not IN (SELECT … FROM servers): the partial index server_reports_quiet_due drives, and the
  // servers are looked up one each, instead of all 10,000 read on every step of the loop (1.9 ms).
  const liveServer = 'EXISTS (SELECT 1 FROM servers WHERE id = server_id AND deleted_at IS NULL)';
  const markQuiet = db.prepare(
    `UPDATE server_reports SET quiet_since = @now
     WHERE quiet_alert_at < @now AND quiet_since IS NULL AND ${liveServer}
     RETURNING server_id, (SELECT company_id FROM servers WHERE id = server_id) AS company_id, last_report_at, interval_seconds`,
  );
  // The watchers markQuiet would mark at @now, with their servers' identifiers: those a maintenance window holds are held first.
  const quietDue = db.prepare(
    `SELECT r.server_id, s.company_id, s.identifier, r.interval_seconds FROM server_reports r JOIN servers s ON s.id = r.server_id
     WHERE r.quiet_alert_at < @now AND r.quiet_since IS NULL AND s.deleted_at IS NULL`,
  );
  const holdQuiet = db.prepare('UPDATE server_reports SET quiet_alert_at = @until WHERE server_id = @serverId AND quiet_since IS NULL');
  // As markQuiet: a deleted server's report is never marked, so it must not wake the loop either (it would every millisecond).
  const earliestQuiet = db
    .prepare(`SELECT min(quiet_alert_at) FROM server_reports WHERE quiet_alert_at IS NOT NULL AND quiet_since IS NULL AND ${liveServer}`)
    .pluck();
  db.function('quiet_after_outage', { deterministic: true }, (quietAlertAt, interval, from, to) =>
    quietAfterOutage(quietAlertAt as number, interval as number | null, { from: from as number | null, to: to as number }),
  );
  // quiet_alert_at < @to narrows to the index's watchers whose quiet moment passed; the domain's rule picks those the outage concerns.
  const graceAfterOutage = db.prepare(
    `UPDATE server_reports SET quiet_alert_at = quiet_after_outage(quiet_alert_at, interval_seconds, @from, @to)
     WHERE quiet_since IS NULL AND quiet_alert_at < @to AND quiet_after_outage(quiet_alert_at, interval_seconds, @from, @to) IS NOT NULL
     RETURNING server_id`,
  );
  const find = db.prepare('SELECT server_id, last_report_at, interval_seconds, jobs, quiet_alert_at FROM server_reports WHERE server_id = ?');
  const ofCompany = db.prepare(
    `SELECT r.server_id, r.last_report_at, r.interval_seconds, r.jobs, r.quiet_alert_at FROM server_reports r
     JOIN servers s ON s.id = r.server_id WHERE s.company_id = ? AND s.deleted_at IS NULL`,
  );
  /**
   * The server's count of watched jobs once `report` replaced its watcher's part: the sum of every
   * watcher's part. A part whose watcher went quiet (quietAfter: it stopped, or watches other files
   * now, under another name) no longer counts, and goes. Null while no watcher has counted.
   */
  function watchedJobs(report: NewServerReport): number | null {
    const watcher = report.watcher ?? '';
    upsertPart.run({ ...report, watcher });
    let sum: number | null = null;
    for (const part of parts.all(report.serverId) as Array<{ watcher: string; jobs: number | null; last_report_at: number; interval_seconds: number | null }>) {
      if (part.watcher !== watcher && quietAfter(part.last_report_at, part.interval_seconds) < report.now) dropPart.run(report.serverId, part.watcher);
      else if (part.jobs !== null) sum = (sum ?? 0) + part.jobs;
    }
    return sum;
  }
  return {
    /**
     * Stores a report (inside the caller's transaction). Returns it, and when this report ends a
     * quiet stretch, the report before it (the last before the watcher went quiet; else null).
     */
    record(report: NewServerReport): { row: ServerReportRow; endsQuietAfter: number | null } {
      const previous = before.get(report.serverId) as { quiet_since: number | null; last_report_at: number } | undefined;
      const ended = previous?.quiet_since != null && endQuiet.run(report.serverId).changes === 1;
      upsert.run({ ...report, jobs: watchedJobs(report) });
      return { row: find.get(report.serverId) as ServerReportRow, endsQuietAfter: ended ? previous!.last_report_at : null };
    },
    /** Marks every watcher quiet whose alert time is before `now` and that is not quiet yet; returns those. */
    markQuiet(now: number): QuietReport[] {
      return markQuiet.all({ now }) as QuietReport[];
    },
    /** Cronbeat resumed after `outage`: watchers whose quiet moment passed meanwhile count from its end (quietAfterOutage). Returns their servers' ids. */
    graceAfterOutage(outage: Outage): number[] {
      return (graceAfterOutage.all(outage) as Array<{ server_id: number }>).map((row) => row.server_id);
    },
    /** The watchers whose quiet moment is before `now` and that are not quiet yet (what markQuiet would mark). */
    quietDue(now: number): Array<{ server_id: number; company_id: number; identifier: string; interval_seconds: number | null }> {
      return quietDue.all({ now }) as Array<{ server_id: number; company_id: number; identifier: string; interval_seconds: number | null }>;
    },
    /** Moves a watcher's quiet moment to `until` (a maintenance window holds it), unless it is quiet already. */
    holdQuiet(serverId: number, until: number): void {
      holdQuiet.run({ serverId, until });
    },
    /** The earliest moment a watcher turns quiet; null when none is waited for. */
    earliestQuietAt(): number | null {
      return (earliestQuiet.get() as number | null) ?? null;
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
