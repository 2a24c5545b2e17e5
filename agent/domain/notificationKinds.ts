/** Every notification belongs to a company, as in the spec. */
export const NOTIFIABLE_TYPE = 'App\\Models\\Company';

/** The `type` of each kind of notification, and the icon class name its data carries. */
export const NOTIFICATION_KINDS = {
  monitorFailed: { type: 'App\\Notifications\\MonitorFailedNotification', icon: 'fa-solid fa-heart-crack' },
  monitorRecovered: { type: 'App\\Notifications\\MonitorRecoveredNotification', icon: 'fa-solid fa-heart-pulse' },
  sslCertificate: { type: 'App\\Notifications\\SslCertificateNotification', icon: 'fa-solid fa-lock' },
  serverAlert: { type: 'App\\Notifications\\ServerAlertNotification', icon: 'fa-solid fa-server' },
} as const;

/** The fields every notification's data has (spec 2.3, "Common fields of data"). */
export interface CommonNotificationData {
  type: 'monitor' | 'ssl_certificate' | 'server';
  type_id: number;
  project_id: number | null;
  status: string;
  title: string;
  description: string;
  timezone: string;
  icon: string;
}

export interface MonitorNotificationData extends CommonNotificationData {
  type: 'monitor';
  monitor_name: string;
  monitor_token: string;
  monitor_schedule: string;
  monitor_last_run_at: string | null;
  monitor_duration: number;
  monitor_is_alerted: number;
  monitor_alert_reason: string;
}

export interface SslCertificateNotificationData extends CommonNotificationData {
  type: 'ssl_certificate';
  ssl_certificate_hostname: string;
  ssl_certificate_port: number;
  ssl_certificate_expires_at: string | null;
  ssl_certificate_status: string;
  ssl_certificate_last_checked_at: string | null;
}

/** Our extension: a server's watcher saw a cron command added, removed or altered. */
export interface ServerAlertNotificationData extends CommonNotificationData {
  type: 'server';
  server_name: string;
  server_identifier: string;
  username: string;
  command: string;
}

export type NotificationData =
  | MonitorNotificationData
  | SslCertificateNotificationData
  | ServerAlertNotificationData;
