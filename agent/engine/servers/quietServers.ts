import type { ServerRow } from '../../db/servers';
import { NOTIFICATION_KINDS } from '../../domain/alerts/notificationKinds';
import { serverQuietNotice, serverReportingNotice } from '../../domain/servers/quietNotices';
import { quietAfter } from '../../domain/servers/quietAfter';
import type { EngineContext } from '../engineContext';
import { coversServer, serverWindowEnd, windowEnd, type MaintenanceWindow } from '../../domain/maintenance/windows';

/*
 * Quiet servers: a watcher's report moves its own quiet alert time; the loop raises
 * one notification (and popup) for each watcher past it, and that watcher's first report after that
 * raises one "reports again". Both are conditional updates, so each is raised exactly once. Another
 * watcher of the same server neither hides a quiet one nor tells it back: the server is quiet while
 * any of its watchers is (serverQuietAt).
 */

type Ctx = Pick<EngineContext, 'store' | 'events' | 'notifier' | 'adminZone'>;

interface Raised {
  companyId: number;
  serverId: number;
  notificationId: string;
  title: string;
  body: string;
}

function announce({ events, notifier }: Ctx, raised: Raised[]): void {
  for (const { companyId, serverId, notificationId, title, body } of raised) {
    events.emit({ type: 'server.changed', companyId, serverId });
    events.emit({ type: 'notification.created', companyId, notificationId });
    notifier.show({ title, body, route: `/servers/${serverId}` });
  }
}

/** The name a notice gives a watcher: none for a server's only watcher (nothing to tell apart), nor for one that gives none. */
function watcherName(watcher: string, watchers: number): string | null {
  return watchers > 1 && watcher !== '' ? watcher : null;
}

/** Records a watcher's report at `now` for `server`; raises "reports again" when it ends a quiet stretch. */
export function recordServerReport(ctx: Ctx, server: ServerRow, report: { watcher?: string; intervalSeconds: number | null; jobs: number | null }, now: number) {
  const { store } = ctx;
  const { row, raised } = store.db.transaction(() => {
    const recorded = store.serverReports.record({ serverId: server.id, now, ...report, quietAlertAt: quietAfter(now, report.intervalSeconds) });
    if (recorded.endsQuietAfter === null) return { row: recorded.row, raised: [] };
    const watcher = watcherName(report.watcher ?? '', recorded.watchers);
    const { data, alert } = serverReportingNotice(server, { lastReportAt: now, intervalSeconds: report.intervalSeconds, watcher }, recorded.endsQuietAfter, ctx.adminZone);
    const notification = store.notifications.create({ companyId: server.company_id, type: NOTIFICATION_KINDS.serverReporting.type, data, alert, now });
    return { row: recorded.row, raised: [{ companyId: server.company_id, serverId: server.id, notificationId: notification.id, title: data.title, body: data.description }] };
  })();
  announce(ctx, raised);
  return row;
}

/**
 * A watcher whose server a maintenance window covers is not quiet while the window lasts (a
 * planned reboot): its quiet moment moves to two reports and a minute after the window's end, as
 * if it had reported then. Inside the caller's transaction.
 */
function holdQuietInMaintenance({ store }: Pick<Ctx, 'store'>, now: number): void {
  const windowsOf = new Map<number, MaintenanceWindow[]>();
  for (const due of store.serverReports.quietDue(now)) {
    if (!windowsOf.has(due.company_id)) windowsOf.set(due.company_id, store.maintenanceWindows.windows(due.company_id));
    const end = serverWindowEnd(windowsOf.get(due.company_id)!, due.identifier, now);
    if (end !== null) store.serverReports.holdQuiet(due.server_id, due.watcher, quietAfter(end, due.interval_seconds));
  }
}

/** Raises one quiet notification for every watcher whose quiet alert time is before `now` (once each), but those a window holds. Returns how many. */
export function raiseQuietServers(ctx: Ctx, now: number): number {
  const { store } = ctx;
  const raised = store.db.transaction((): Raised[] => {
    holdQuietInMaintenance(ctx, now);
    return store.serverReports.markQuiet(now).flatMap((quiet) => {
      const server = store.servers.find(quiet.company_id, quiet.server_id);
      if (!server) return [];
      const watcher = watcherName(quiet.watcher, quiet.watchers);
      const { data, alert } = serverQuietNotice(server, { lastReportAt: quiet.last_report_at, intervalSeconds: quiet.interval_seconds, watcher }, now, ctx.adminZone);
      const notification = store.notifications.create({ companyId: quiet.company_id, type: NOTIFICATION_KINDS.serverQuiet.type, data, alert, now });
      return [{ companyId: quiet.company_id, serverId: server.id, notificationId: notification.id, title: data.title, body: data.description }];
    });
  })();
  announce(ctx, raised);
  return raised.length;
}

/**
 * After `old` (as it was before an edit or a removal) stopped holding watchers as long: each
 * watcher it held past its quiet moment is quiet two reports and a minute after the maintenance
 * that still covers it ends, or after `now`, not after `old`'s end, so a window ended early hides
 * no dead watcher after it. Call inside the transaction that changed the window; returns the
 * servers planned again, whose change the caller announces once it has committed.
 */
export function replanQuietAfterWindowChange({ store }: Pick<Ctx, 'store'>, companyId: number, old: MaintenanceWindow, now: number): number[] {
  if (windowEnd(old, now) === null) return [];
  const windows = store.maintenanceWindows.windows(companyId);
  const servers = new Map(store.servers.list(companyId).map((server) => [server.id, server]));
  const replanned = new Set<number>();
  for (const watcher of store.serverReports.watchersOfCompany(companyId)) {
    const server = servers.get(watcher.server_id);
    if (!server || !coversServer(old, server.identifier)) continue;
    const from = Math.max(watcher.last_report_at, serverWindowEnd(windows, server.identifier, now) ?? now);
    const until = quietAfter(from, watcher.interval_seconds);
    if (until >= watcher.quiet_alert_at) continue;
    store.serverReports.holdQuiet(server.id, watcher.watcher, until);
    replanned.add(server.id);
  }
  return [...replanned];
}
