import { NOTIFICATION_KINDS, type ServerAlertNotificationData } from '../alerts/notificationKinds';

/** What a server's watcher saw happen to a cron job. */
export const CRON_CHANGES = ['added', 'removed', 'altered'] as const;
export type CronChange = (typeof CRON_CHANGES)[number];

interface AlertedServer {
  id: number;
  name: string;
  identifier: string;
}

export interface CronChangeReport {
  username: string;
  command: string;
  change: CronChange;
  previousCommand: string | null;
}

function describe(server: AlertedServer, report: CronChangeReport): string {
  const where = `${server.name} (${server.identifier})`;
  switch (report.change) {
    case 'added':
      return `A cron job of ${report.username} was added on ${where}: ${report.command}`;
    case 'removed':
      return `A cron job of ${report.username} was removed from ${where}: ${report.command}`;
    case 'altered':
      return report.previousCommand
        ? `A cron job of ${report.username} on ${where} was altered from "${report.previousCommand}" to: ${report.command}`
        : `A cron job of ${report.username} on ${where} was altered: ${report.command}`;
  }
}

/** The notification data for a cron command that changed on a server. */
export function serverAlertData(server: AlertedServer, report: CronChangeReport): ServerAlertNotificationData {
  return {
    type: 'server',
    type_id: server.id,
    project_id: null,
    status: 'altered',
    title: `Cron job ${report.change} on ${server.name}`,
    description: describe(server, report),
    timezone: 'UTC',
    icon: NOTIFICATION_KINDS.serverAlert.icon,
    server_name: server.name,
    server_identifier: server.identifier,
    username: report.username,
    command: report.command,
  };
}
