/**
 * Migrations 8–12, round 2: watcher heartbeats, channels and the delivery outbox,
 * idempotent pulses, pause and snooze, the notification indexes. Shipped: never edit one
 * (agent/db/migrations.ts lists them in order).
 */
export const roundTwoMigrations: string[] = [
  // 8: when each server's crontab watcher last reported (a heartbeat with every snapshot), and how
  // often it said it would, so a watcher that died shows as quiet.
  `
  CREATE TABLE server_reports (
    server_id INTEGER PRIMARY KEY REFERENCES servers(id),
    last_report_at INTEGER NOT NULL,
    interval_seconds INTEGER,
    jobs INTEGER
  );
  `,
  // 9: notification channels, which subjects go to which of them, and the delivery
  // outbox: one row per notification and channel, written with the notification.
  `
  CREATE TABLE channels (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    quiet_hours TEXT,
    failing_since INTEGER,
    failure_popup_at INTEGER,
    deleted_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX channels_live ON channels(company_id, id) WHERE deleted_at IS NULL;

  CREATE TABLE alert_routes (
    subject_type TEXT NOT NULL,
    subject_id INTEGER NOT NULL,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    channel_ids TEXT NOT NULL,
    PRIMARY KEY (subject_type, subject_id)
  );

  CREATE TABLE failure_routes (
    subject_type TEXT NOT NULL,
    subject_id INTEGER NOT NULL,
    channel_ids TEXT NOT NULL,
    PRIMARY KEY (subject_type, subject_id)
  );

  CREATE TABLE deliveries (
    id INTEGER PRIMARY KEY,
    notification_id TEXT NOT NULL REFERENCES notifications(id),
    channel_id INTEGER NOT NULL REFERENCES channels(id),
    status TEXT NOT NULL CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    give_up_at INTEGER NOT NULL,
    last_attempt_at INTEGER,
    last_error TEXT,
    response_status INTEGER,
    response_body TEXT,
    sent_at INTEGER,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX deliveries_due ON deliveries(channel_id, next_attempt_at, id) WHERE status = 'pending';
  CREATE INDEX deliveries_by_notification ON deliveries(notification_id);
  CREATE INDEX deliveries_sending ON deliveries(id) WHERE status = 'sending';
  `,
  // 10: the client's idempotency key of a pulse, so a retried pulse is stored once per key and monitor.
  `
  ALTER TABLE pulses ADD COLUMN idempotency_key TEXT;
  CREATE UNIQUE INDEX pulses_idempotency_key ON pulses(monitor_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
  `,
  // 11: pause and snooze, and when a monitor last heard a pulse (null: never, the monitor is "new").
  `
  ALTER TABLE monitors ADD COLUMN paused_at INTEGER;
  ALTER TABLE monitors ADD COLUMN paused_until INTEGER;
  ALTER TABLE monitors ADD COLUMN last_pulse_at INTEGER;
  UPDATE monitors SET last_pulse_at = (SELECT max(received_at) FROM pulses WHERE pulses.monitor_id = monitors.id);
  `,
  // 12: the notification list's default (the spec's two kinds) and its unread filter, each on its own
  // partial index. A certificate notification written before any certificate was read has no expiry
  // date, which the spec types as a timestamp: it becomes Cronbeat's own "unreadable" kind.
  `
  UPDATE notifications SET type = 'App\\Notifications\\SslCertificateUnreadableNotification'
    WHERE type = 'App\\Notifications\\SslCertificateNotification'
      AND json_extract(data, '$.ssl_certificate_expires_at') IS NULL;
  CREATE INDEX notifications_spec_newest ON notifications(notifiable_id, created_at DESC, id DESC)
    WHERE type IN ('App\\Notifications\\MonitorFailedNotification', 'App\\Notifications\\SslCertificateNotification');
  CREATE INDEX notifications_unread ON notifications(notifiable_id, created_at DESC, id DESC) WHERE read_at IS NULL;
  `,
];
