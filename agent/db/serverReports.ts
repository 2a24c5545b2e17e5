import type { Db } from './open';
import type { Outage } from '../domain/monitors/dueTime';
import { quietAfter, quietAfterOutage, serverQuietAt } from '../domain/servers/quietAfter';

/** The last report of a server's crontab watchers (POST /api/servers/heartbeat). */
export interface ServerReportRow {
  server_id: number;
  last_report_at: number;
  /** How often the watcher said it reports; null when it did not say. */
  interval_seconds: number | null;
  /** How many jobs its watchers watch: the sum of each watcher's last count (server_watchers). */
  jobs: number | null;
  /** The moment the server counts as quiet: the earliest of its watchers' (serverQuietAt), each unless it reports again. */
  quiet_alert_at: number;
}

/** One watcher of a server: its last report and the moment it counts as quiet (later than quietAfter's after Cronbeat was down or in maintenance). */
export interface WatcherRow {
  server_id: number;
  watcher: string;
  last_report_at: number;
  interval_seconds: number | null;
  quiet_alert_at: number;
}

/** A watcher just found quiet (markQuiet): its server and last report, and how many watchers its server has. */
export interface QuietReport {
  server_id: number;
  watcher: string;
  company_id: number;
  last_report_at: number;
  interval_seconds: number | null;
  watchers: number;
}

/** What a report ended: the report before it, when its watcher was quiet until then; else null. */
export interface RecordedReport {
  row: ServerReportRow;
  endsQuietAfter: number | null;
  /** How many watchers the server has, this one included. */
  watchers: number;
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
    `INSERT INTO server_reports (server_id, last_report_at, interval_seconds, jobs)
     VALUES (@serverId, @now, @intervalSeconds, @jobs)
     ON CONFLICT(server_id) DO UPDATE SET last_report_at = excluded.last_report_at,
       interval_seconds = excluded.interval_seconds, jobs = excluded.jobs`,
  );
  // A watcher's report: its part of the count (a report without one, the check at its start, keeps the part
  // it had), its quiet moment, and the end of its quiet stretch if it was in one.
  const upsertWatcher = db.prepare(
    `INSERT INTO server_watchers (server_id, watcher, jobs, last_report_at, interval_seconds, quiet_alert_at, quiet_since)
     VALUES (@serverId, @watcher, @jobs, @now, @intervalSeconds, @quietAlertAt, NULL)
     ON CONFLICT(server_id, watcher) DO UPDATE SET jobs = coalesce(excluded.jobs, jobs),
       last_report_at = excluded.last_report_at, interval_seconds = excluded.interval_seconds,
       quiet_alert_at = excluded.quiet_alert_at, quiet_since = NULL`,
  );
  // A cronbeat from before watchers named themselves reported as '': the first named watcher of its server is that
  // one upgraded, so it takes the unnamed one's place (and its quiet stretch, which its report ends) instead of
  // leaving it to go quiet, and stay so, as a watcher that stopped. An old cronbeat still running beside it reports
  // as '' again, a watcher of its own from then on.
  const adoptUnnamed = db.prepare(
    `UPDATE server_watchers SET watcher = @watcher WHERE server_id = @serverId AND watcher = ''
     AND NOT EXISTS (SELECT 1 FROM server_watchers WHERE server_id = @serverId AND watcher = @watcher)`,
  );
  const watcherBefore = db.prepare('SELECT quiet_since, last_report_at FROM server_watchers WHERE server_id = ? AND watcher = ?');
  const watchersOf = db.prepare('SELECT server_id, watcher, jobs, last_report_at, interval_seconds, quiet_alert_at FROM server_watchers WHERE server_id = ?');
  // Conditional on not being quiet yet, so each watcher's quiet stretch is raised exactly once; deleted servers never.
  // EXISTS, not IN (SELECT … FROM servers): the partial index server_watchers_quiet_due drives, and the
  // servers are looked up one each, instead of all 10,000 read on every step of the loop (1.9 ms).
  const liveServer = 'EXISTS (SELECT 1 FROM servers WHERE id = server_id AND deleted_at IS NULL)';
  const markQuiet = db.prepare(
    `UPDATE server_watchers SET quiet_since = @now
     WHERE quiet_alert_at < @now AND quiet_since IS NULL AND ${liveServer}
     RETURNING server_id, watcher, (SELECT company_id FROM servers WHERE id = server_id) AS company_id, last_report_at, interval_seconds,
       (SELECT count(*) FROM server_watchers o WHERE o.server_id = server_watchers.server_id) AS watchers`,
  );
  // The watchers markQuiet would mark at @now, with their servers' identifiers: those a maintenance window holds are held first.
  const quietDue = db.prepare(
    `SELECT w.server_id, w.watcher, s.company_id, s.identifier, w.interval_seconds FROM server_watchers w JOIN servers s ON s.id = w.server_id
     WHERE w.quiet_alert_at < @now AND w.quiet_since IS NULL AND s.deleted_at IS NULL`,
  );
  const holdQuiet = db.prepare('UPDATE server_watchers SET quiet_alert_at = @until WHERE server_id = @serverId AND watcher = @watcher AND quiet_since IS NULL');
  // As markQuiet: a deleted server's watcher is never marked, so it must not wake the loop either (it would every millisecond).
  const earliestQuiet = db
    .prepare(`SELECT min(quiet_alert_at) FROM server_watchers WHERE quiet_alert_at IS NOT NULL AND quiet_since IS NULL AND ${liveServer}`)
    .pluck();
  db.function('quiet_after_outage', { deterministic: true }, (quietAlertAt, interval, from, to) =>
    quietAfterOutage(quietAlertAt as number, interval as number | null, { from: from as number | null, to: to as number }),
  );
  // quiet_alert_at < @to narrows to the index's watchers whose quiet moment passed; the domain's rule picks those the outage concerns.
  const graceAfterOutage = db.prepare(
    `UPDATE server_watchers SET quiet_alert_at = quiet_after_outage(quiet_alert_at, interval_seconds, @from, @to)
     WHERE quiet_since IS NULL AND quiet_alert_at < @to AND quiet_after_outage(quiet_alert_at, interval_seconds, @from, @to) IS NOT NULL
     RETURNING server_id`,
  );
  // A server's quiet moment: its watchers' folded by the domain's rule, one watcher at a time.
  db.aggregate<number | null>('server_quiet_at', {
    deterministic: true,
    start: null,
    step: (soFar, watcherQuietAt) => serverQuietAt(soFar, watcherQuietAt as unknown as number),
  });
  const reportColumns = `r.server_id, r.last_report_at, r.interval_seconds, r.jobs,
    (SELECT server_quiet_at(w.quiet_alert_at) FROM server_watchers w WHERE w.server_id = r.server_id) AS quiet_alert_at`;
  const find = db.prepare(`SELECT ${reportColumns} FROM server_reports r WHERE r.server_id = ?`);
  const ofCompany = db.prepare(
    `SELECT ${reportColumns} FROM server_reports r JOIN servers s ON s.id = r.server_id WHERE s.company_id = ? AND s.deleted_at IS NULL`,
  );
  const forget = db.prepare('DELETE FROM server_watchers WHERE server_id = ? AND watcher = ?');
  const watchersOfCompany = db.prepare(
    `SELECT w.server_id, w.watcher, w.last_report_at, w.interval_seconds, w.quiet_alert_at FROM server_watchers w
     JOIN servers s ON s.id = w.server_id WHERE s.company_id = ? AND s.deleted_at IS NULL`,
  );
  /** A report as stored, its server's quiet moment its last report's own when no watcher is known (a server forgotten of all). */
  function reportOf(row: Omit<ServerReportRow, 'quiet_alert_at'> & { quiet_alert_at: number | null }): ServerReportRow {
    return { ...row, quiet_alert_at: row.quiet_alert_at ?? quietAfter(row.last_report_at, row.interval_seconds) };
  }
  /**
   * The server's count of watched jobs once `report` replaced its watcher's part: the sum of every
   * watcher's part. A part whose watcher went quiet (quietAfter: it stopped, or watches other files
   * now, under another name) no longer counts; the watcher stays, quiet, until it reports again.
   * Null while no watcher has counted.
   */
  function watchedJobs(report: NewServerReport, watcher: string, watchers: Array<WatcherRow & { jobs: number | null }>): number | null {
    let sum: number | null = null;
    for (const part of watchers) {
      if (part.watcher !== watcher && quietAfter(part.last_report_at, part.interval_seconds) < report.now) continue;
      if (part.jobs !== null) sum = (sum ?? 0) + part.jobs;
    }
    return sum;
  }
  return {
    /**
     * Stores a report (inside the caller's transaction). Returns it, with the server's quiet moment,
     * and when this report ends its watcher's quiet stretch, the watcher's report before it (else null).
     */
    record(report: NewServerReport): RecordedReport {
      const watcher = report.watcher ?? '';
      if (watcher !== '') adoptUnnamed.run({ serverId: report.serverId, watcher });
      const previous = watcherBefore.get(report.serverId, watcher) as { quiet_since: number | null; last_report_at: number } | undefined;
      upsertWatcher.run({ ...report, watcher });
      const watchers = watchersOf.all(report.serverId) as Array<WatcherRow & { jobs: number | null }>;
      upsert.run({ ...report, jobs: watchedJobs(report, watcher, watchers) });
      const row = reportOf(find.get(report.serverId) as ServerReportRow);
      return { row, endsQuietAfter: previous?.quiet_since != null ? previous.last_report_at : null, watchers: watchers.length };
    },
    /** Marks every watcher quiet whose alert time is before `now` and that is not quiet yet; returns those. */
    markQuiet(now: number): QuietReport[] {
      return markQuiet.all({ now }) as QuietReport[];
    },
    /** Cronbeat resumed after `outage`: watchers whose quiet moment passed meanwhile count from its end (quietAfterOutage). Returns their servers' ids. */
    graceAfterOutage(outage: Outage): number[] {
      return [...new Set((graceAfterOutage.all(outage) as Array<{ server_id: number }>).map((row) => row.server_id))];
    },
    /** The watchers whose quiet moment is before `now` and that are not quiet yet (what markQuiet would mark). */
    quietDue(now: number): Array<{ server_id: number; watcher: string; company_id: number; identifier: string; interval_seconds: number | null }> {
      return quietDue.all({ now }) as Array<{ server_id: number; watcher: string; company_id: number; identifier: string; interval_seconds: number | null }>;
    },
    /** Moves a watcher's quiet moment to `until` (a maintenance window holds it), unless it is quiet already. */
    holdQuiet(serverId: number, watcher: string, until: number): void {
      holdQuiet.run({ serverId, watcher, until });
    },
    /** The earliest moment a watcher turns quiet; null when none is waited for. */
    earliestQuietAt(): number | null {
      return (earliestQuiet.get() as number | null) ?? null;
    },
    find(serverId: number): ServerReportRow | null {
      const row = find.get(serverId) as ServerReportRow | undefined;
      return row ? reportOf(row) : null;
    },
    /** The reports of a company's live servers, by server id. */
    ofCompany(companyId: number): Map<number, ServerReportRow> {
      return new Map((ofCompany.all(companyId) as ServerReportRow[]).map((row) => [row.server_id, reportOf(row)]));
    },
    /** A server's watchers, by name. */
    watchers(serverId: number): Array<WatcherRow & { jobs: number | null }> {
      return (watchersOf.all(serverId) as Array<WatcherRow & { jobs: number | null }>).sort((a, b) => a.watcher.localeCompare(b.watcher));
    },
    /**
     * Forgets one of a server's watchers (one stopped for good, or replaced by one of other files under
     * another name): it no longer makes its server quiet, until it reports again. False when there is none.
     */
    forget(serverId: number, watcher: string): boolean {
      return forget.run(serverId, watcher).changes === 1;
    },
    /** The watchers of a company's live servers. */
    watchersOfCompany(companyId: number): WatcherRow[] {
      return watchersOfCompany.all(companyId) as WatcherRow[];
    },
  };
}
