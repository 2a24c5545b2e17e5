import type { Alert, NoticeReason } from '../alerts/alert';
import { noticeZone, wordsOfNotice } from '../alerts/noticeWords';
import { NOTIFICATION_KINDS, type ServerQuietNotificationData } from '../alerts/notificationKinds';
import { toApiTimestamp } from '../time/apiTimestamps';

/*
 * A server whose crontab watcher went quiet: one notification when its reports stop (quietAfter,
 * the same moment the servers list marks it quiet), one when it reports again.
 */

interface QuietServer {
  id: number;
  name: string;
  identifier: string;
}

interface WatcherReport {
  lastReportAt: number;
  intervalSeconds: number | null;
  /** Which of the server's watchers, named when it has several; absent or null for its only one. */
  watcher?: string | null;
}

/** The alert of a watcher that went quiet (`status` quiet) or reported again at `now`, and its notification data with its words. */
function notice(
  server: QuietServer,
  report: WatcherReport,
  status: 'quiet' | 'reporting',
  reason: Extract<NoticeReason, { kind: 'server_quiet' | 'server_reporting' }>,
  now: number,
  zone: string,
): { alert: Alert; data: ServerQuietNotificationData } {
  const alert: Alert = { event: 'server', at: toApiTimestamp(now), reason, monitor: null, server: { id: server.id, name: server.name }, run: null, expected_at: null };
  const data: ServerQuietNotificationData = {
    type: 'server',
    type_id: server.id,
    project_id: null,
    status,
    ...wordsOfNotice(reason, alert, zone),
    timezone: noticeZone(zone),
    icon: (status === 'quiet' ? NOTIFICATION_KINDS.serverQuiet : NOTIFICATION_KINDS.serverReporting).icon,
    server_name: server.name,
    server_identifier: server.identifier,
    server_last_report_at: toApiTimestamp(report.lastReportAt),
    server_report_interval_seconds: report.intervalSeconds,
  };
  return { alert, data };
}

/** The reason's `watcher` field, only when the notice names one (a server with a single watcher keeps the words and data it had). */
function watcherOf(report: WatcherReport): { watcher?: string } {
  return report.watcher ? { watcher: report.watcher } : {};
}

/** A watcher that stopped reporting, noticed at `now`; its words in the admin's `zone`. */
export function serverQuietNotice(server: QuietServer, report: WatcherReport, now: number, zone = 'UTC') {
  const reason = {
    kind: 'server_quiet' as const,
    server_identifier: server.identifier,
    last_report_at: toApiTimestamp(report.lastReportAt),
    interval_seconds: report.intervalSeconds,
    ...watcherOf(report),
  };
  return notice(server, report, 'quiet', reason, now, zone);
}

/**
 * A quiet watcher that reported again at `report.lastReportAt`; its report before that came at
 * `previousReportAt`, so the silence told is the whole of it, not the part since the quiet notification.
 * Its words in the admin's `zone`.
 */
export function serverReportingNotice(server: QuietServer, report: WatcherReport, previousReportAt: number, zone = 'UTC') {
  const reason = {
    kind: 'server_reporting' as const,
    server_identifier: server.identifier,
    last_report_at: toApiTimestamp(report.lastReportAt),
    previous_report_at: toApiTimestamp(previousReportAt),
    interval_seconds: report.intervalSeconds,
    ...watcherOf(report),
  };
  return notice(server, report, 'reporting', reason, report.lastReportAt, zone);
}
