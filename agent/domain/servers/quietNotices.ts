import { describeMoment } from '../alerts/reasonPieces';
import { NOTIFICATION_KINDS, type ServerQuietNotificationData } from '../alerts/notificationKinds';
import { toApiTimestamp } from '../time/apiTimestamps';
import { describeDuration } from '../time/durations';

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
}

function every(intervalSeconds: number | null): string {
  if (intervalSeconds === null) return 'hour (it did not say how often)';
  if (intervalSeconds === 1) return 'second';
  if (intervalSeconds % 3600 === 0) return intervalSeconds === 3600 ? 'hour' : `${intervalSeconds / 3600} hours`;
  if (intervalSeconds % 60 === 0) return intervalSeconds === 60 ? 'minute' : `${intervalSeconds / 60} minutes`;
  return `${intervalSeconds} seconds`;
}

function data(server: QuietServer, report: WatcherReport, status: 'quiet' | 'reporting', title: string, description: string): ServerQuietNotificationData {
  return {
    type: 'server',
    type_id: server.id,
    project_id: null,
    status,
    title,
    description,
    timezone: 'UTC',
    icon: (status === 'quiet' ? NOTIFICATION_KINDS.serverQuiet : NOTIFICATION_KINDS.serverReporting).icon,
    server_name: server.name,
    server_identifier: server.identifier,
    server_last_report_at: toApiTimestamp(report.lastReportAt),
    server_report_interval_seconds: report.intervalSeconds,
  };
}

/** The notification data for a watcher that stopped reporting. */
export function serverQuietData(server: QuietServer, report: WatcherReport): ServerQuietNotificationData {
  return data(
    server,
    report,
    'quiet',
    `${server.name} went quiet`,
    `The crontab watcher of ${server.name} (${server.identifier}) has not reported since ${describeMoment(report.lastReportAt, 'UTC')}; ` +
      `it reports every ${every(report.intervalSeconds)}. Is \`cronbeat crontab watch\` still running there, and can it reach Cronbeat?`,
  );
}

/**
 * The notification data for a quiet watcher that reported again at `report.lastReportAt`; its
 * report before that came at `previousReportAt`, so the silence told is the whole of it, not the
 * part since the quiet notification.
 */
export function serverReportingData(server: QuietServer, report: WatcherReport, previousReportAt: number): ServerQuietNotificationData {
  return data(
    server,
    report,
    'reporting',
    `${server.name} reports again`,
    `The crontab watcher of ${server.name} (${server.identifier}) reported again at ${describeMoment(report.lastReportAt, 'UTC')}, after ${describeDuration(report.lastReportAt - previousReportAt)} without a report.`,
  );
}
