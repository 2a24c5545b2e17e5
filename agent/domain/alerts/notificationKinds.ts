/** Every notification belongs to a company, as in the spec. */
export const NOTIFIABLE_TYPE = 'App\\Models\\Company';

/** The `type` of each kind of notification, and the icon class name its data carries. */
export const NOTIFICATION_KINDS = {
  monitorFailed: { type: 'App\\Notifications\\MonitorFailedNotification', icon: 'fa-solid fa-heart-crack' },
  monitorRecovered: { type: 'App\\Notifications\\MonitorRecoveredNotification', icon: 'fa-solid fa-heart-pulse' },
  sslCertificate: { type: 'App\\Notifications\\SslCertificateNotification', icon: 'fa-solid fa-lock' },
  // Ours: a certificate check that never read a certificate (no expiry date to give the spec's kind).
  sslCertificateUnreadable: { type: 'App\\Notifications\\SslCertificateUnreadableNotification', icon: 'fa-solid fa-plug-circle-xmark' },
  serverAlert: { type: 'App\\Notifications\\ServerAlertNotification', icon: 'fa-solid fa-server' },
  // Ours: a reminder that a monitor is still failed, sent to a channel that repeats alerts.
  monitorStillFailing: { type: 'App\\Notifications\\MonitorStillFailingNotification', icon: 'fa-solid fa-heart-crack' },
  // Ours: a monitor whose alerts keep changing between failed and fine (its alerts folded), and steady again after it.
  monitorFlapping: { type: 'App\\Notifications\\MonitorFlappingNotification', icon: 'fa-solid fa-wave-square' },
  monitorSteady: { type: 'App\\Notifications\\MonitorSteadyNotification', icon: 'fa-solid fa-heart-pulse' },
  // Ours: a server's crontab watcher stopped reporting, and reported again.
  serverQuiet: { type: 'App\\Notifications\\ServerQuietNotification', icon: 'fa-solid fa-volume-xmark' },
  serverReporting: { type: 'App\\Notifications\\ServerReportingAgainNotification', icon: 'fa-solid fa-tower-broadcast' },
} as const;

/**
 * Ours: a channel's daily, weekly or monthly report (agent/domain/reports/), kept as a notification
 * so the outbox sends it; never listed, since its data is the report and not a notification's.
 */
export const REPORT_NOTIFICATION_TYPE = 'App\\Notifications\\ChannelReportNotification';

/**
 * The kinds the spec names: GET /api/notifications lists only these unless asked for
 * `kinds=all`, because a client written against the spec may reject any other type.
 */
export const SPEC_NOTIFICATION_TYPES: readonly string[] = [NOTIFICATION_KINDS.monitorFailed.type, NOTIFICATION_KINDS.sslCertificate.type];

/** Which notifications a list shows: the spec's kinds or all, and unread ones only or not. */
export interface NotificationFilter {
  kinds: 'spec' | 'all';
  unread: boolean;
}

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
  /** Null in what a key that does not see pulse tokens reads (keyScopes.ts, seesPulseTokens). */
  monitor_token: string | null;
  monitor_schedule: string;
  monitor_last_run_at: string | null;
  monitor_duration: number;
  monitor_is_alerted: number;
  monitor_alert_reason: string;
}

/** The spec's types, always: an expiry date and a check time are timestamps, never null. */
export interface SslCertificateNotificationData extends CommonNotificationData {
  type: 'ssl_certificate';
  ssl_certificate_hostname: string;
  ssl_certificate_port: number;
  ssl_certificate_expires_at: string;
  ssl_certificate_status: string;
  ssl_certificate_last_checked_at: string;
}

/** Ours: the same fields for a certificate that was never read, whose expiry date is unknown (null). */
export interface SslCertificateUnreadableNotificationData extends Omit<SslCertificateNotificationData, 'ssl_certificate_expires_at'> {
  ssl_certificate_expires_at: null;
}

/** Our extension: a server's watcher saw a cron command added, removed or altered. */
export interface ServerAlertNotificationData extends CommonNotificationData {
  type: 'server';
  server_name: string;
  server_identifier: string;
  username: string;
  command: string;
}

/** Ours: a server's watcher went quiet (status `quiet`) or reported again (status `reporting`). */
export interface ServerQuietNotificationData extends CommonNotificationData {
  type: 'server';
  status: 'quiet' | 'reporting';
  server_name: string;
  server_identifier: string;
  server_last_report_at: string;
  server_report_interval_seconds: number | null;
}

export type NotificationData =
  | MonitorNotificationData
  | SslCertificateNotificationData
  | SslCertificateUnreadableNotificationData
  | ServerAlertNotificationData
  | ServerQuietNotificationData;
