import { NOTIFICATION_KINDS, type ServerAlertNotificationData } from './notificationKinds';

interface AlertedServer {
  id: number;
  name: string;
  identifier: string;
}

/** The notification data for a cron command that changed on a server. */
export function serverAlertData(server: AlertedServer, username: string, command: string): ServerAlertNotificationData {
  return {
    type: 'server',
    type_id: server.id,
    project_id: null,
    status: 'altered',
    title: `Cron job changed on ${server.name}`,
    description: `A cron job of ${username} on ${server.name} (${server.identifier}) was added, removed or altered: ${command}`,
    timezone: 'UTC',
    icon: NOTIFICATION_KINDS.serverAlert.icon,
    server_name: server.name,
    server_identifier: server.identifier,
    username,
    command,
  };
}
