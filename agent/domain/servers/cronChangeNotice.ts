import type { Alert, NoticeReason } from '../alerts/alert';
import { wordsOfNotice } from '../alerts/noticeWords';
import { NOTIFICATION_KINDS, type ServerAlertNotificationData } from '../alerts/notificationKinds';
import type { AlertedServer, CronChangeReport } from './jobChanges';
import { toApiTimestamp } from '../time/apiTimestamps';

/** A cron command that changed on a server, at `now`: the alert as data, and the notification data with its words. */
export function serverAlertNotice(server: AlertedServer, report: CronChangeReport, now: number): { alert: Alert; data: ServerAlertNotificationData } {
  const reason: NoticeReason = {
    kind: 'cron_changed',
    change: report.change,
    username: report.username,
    command: report.command,
    previous_command: report.previousCommand,
    server_identifier: server.identifier,
  };
  const alert: Alert = {
    event: 'server',
    at: toApiTimestamp(now),
    reason,
    monitor: null,
    server: { id: server.id, name: server.name },
    run: null,
    expected_at: null,
  };
  const data: ServerAlertNotificationData = {
    type: 'server',
    type_id: server.id,
    project_id: null,
    status: 'altered',
    ...wordsOfNotice(reason, alert),
    timezone: 'UTC',
    icon: NOTIFICATION_KINDS.serverAlert.icon,
    server_name: server.name,
    server_identifier: server.identifier,
    username: report.username,
    command: report.command,
  };
  return { alert, data };
}
