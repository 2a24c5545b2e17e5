/**
 * The schema, as an ordered list: entry N brings a database from user_version N to N+1.
 * Append new entries; never edit one that has shipped. Times are integer milliseconds (UTC).
 */
export const migrations: string[] = [
  // 1: the core resources of the spec, plus API tokens and server alerts.
  `
  CREATE TABLE companies (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER,
    revoked_at INTEGER
  );

  CREATE TABLE servers (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    name TEXT NOT NULL,
    identifier TEXT NOT NULL,
    ip_address TEXT NOT NULL,
    deleted_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX servers_live_identifier ON servers(company_id, identifier) WHERE deleted_at IS NULL;

  CREATE TABLE server_alerts (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    server_id INTEGER NOT NULL REFERENCES servers(id),
    username TEXT NOT NULL,
    command TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX server_alerts_by_server ON server_alerts(server_id, created_at);

  CREATE TABLE monitors (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    name TEXT NOT NULL,
    project_id INTEGER,
    token TEXT NOT NULL UNIQUE,
    timezone TEXT NOT NULL,
    schedule TEXT NOT NULL,
    duration INTEGER NOT NULL,
    last_run_at INTEGER NOT NULL,
    is_alerted INTEGER NOT NULL DEFAULT 0,
    alert_reason TEXT NOT NULL DEFAULT '',
    due_at INTEGER,
    deleted_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX monitors_due ON monitors(due_at) WHERE due_at IS NOT NULL;
  CREATE INDEX monitors_live ON monitors(company_id, id) WHERE deleted_at IS NULL;

  CREATE TABLE notifications (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    notifiable_type TEXT NOT NULL,
    notifiable_id INTEGER NOT NULL,
    data TEXT NOT NULL,
    read_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX notifications_newest ON notifications(notifiable_id, created_at DESC, id DESC);
  `,
  // 2: TLS certificates watched per company, with when each is checked next.
  `
  CREATE TABLE ssl_certificates (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    hostname TEXT NOT NULL,
    port INTEGER NOT NULL,
    warn_days INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    expires_at INTEGER,
    valid_from INTEGER,
    issuer TEXT,
    subject TEXT,
    fingerprint_sha256 TEXT,
    last_checked_at INTEGER,
    last_error TEXT,
    reminder_days INTEGER,
    next_check_at INTEGER NOT NULL,
    deleted_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX ssl_certificates_live_address ON ssl_certificates(company_id, hostname, port) WHERE deleted_at IS NULL;
  CREATE INDEX ssl_certificates_due ON ssl_certificates(next_check_at) WHERE deleted_at IS NULL;
  `,
  // 3: the monitoring engine: what each monitor waits for, and the run history.
  `
  ALTER TABLE monitors ADD COLUMN expected_run_at INTEGER;
  ALTER TABLE monitors ADD COLUMN running_since INTEGER;
  ALTER TABLE monitors ADD COLUMN running_rid TEXT;
  ALTER TABLE monitors ADD COLUMN grace_from INTEGER;

  CREATE TABLE pulses (
    id INTEGER PRIMARY KEY,
    monitor_id INTEGER NOT NULL REFERENCES monitors(id),
    kind TEXT NOT NULL CHECK (kind IN ('start', 'success', 'fail')),
    exit_code INTEGER,
    rid TEXT,
    received_at INTEGER NOT NULL,
    duration_ms INTEGER,
    method TEXT NOT NULL,
    remote_address TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    body_truncated INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX pulses_newest ON pulses(monitor_id, received_at DESC, id DESC);
  CREATE INDEX pulses_by_rid ON pulses(monitor_id, rid, received_at) WHERE rid IS NOT NULL;
  `,
  // 4: one-time dashboard sign-in codes (hashed), and which session token each was traded for.
  `
  CREATE TABLE sign_in_codes (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    code_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER,
    api_token_id INTEGER REFERENCES api_tokens(id)
  );
  CREATE INDEX sign_in_codes_by_token ON sign_in_codes(api_token_id) WHERE api_token_id IS NOT NULL;
  `,
  // 5: what a server's watcher saw happen to a cron command, and the command it replaced.
  `
  ALTER TABLE server_alerts ADD COLUMN change TEXT NOT NULL DEFAULT 'altered';
  ALTER TABLE server_alerts ADD COLUMN previous_command TEXT;
  `,
  // 6: popups as an outbox: a monitor failure or recovery whose popup was not shown yet (the agent
  // died first) is shown at the next start. Earlier notifications count as shown.
  `
  ALTER TABLE notifications ADD COLUMN popup_shown_at INTEGER;
  UPDATE notifications SET popup_shown_at = created_at;
  CREATE INDEX notifications_popup_pending ON notifications(created_at)
    WHERE popup_shown_at IS NULL
      AND type IN ('App\\Notifications\\MonitorFailedNotification', 'App\\Notifications\\MonitorRecoveredNotification');
  `,
  // 7: how many pulses each monitor keeps, so a pulse trims the oldest without counting them all.
  `
  ALTER TABLE monitors ADD COLUMN pulses_kept INTEGER NOT NULL DEFAULT 0;
  UPDATE monitors SET pulses_kept = (SELECT count(*) FROM pulses WHERE pulses.monitor_id = monitors.id);
  `,
  // 8 (issue 16): when each server's crontab watcher last reported (a heartbeat with every snapshot), and how
  // often it said it would, so a watcher that died shows as quiet.
  `
  CREATE TABLE server_reports (
    server_id INTEGER PRIMARY KEY REFERENCES servers(id),
    last_report_at INTEGER NOT NULL,
    interval_seconds INTEGER,
    jobs INTEGER
  );
  `,
  // 9 (issue 14): notification channels, which subjects go to which of them, and the delivery
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
  // 10 (issue 12): the client's idempotency key of a pulse, so a retried pulse is stored once per key and monitor.
  `
  ALTER TABLE pulses ADD COLUMN idempotency_key TEXT;
  CREATE UNIQUE INDEX pulses_idempotency_key ON pulses(monitor_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
  `,
  // 11 (issue 13): pause and snooze, and when a monitor last heard a pulse (null: never, the monitor is "new").
  `
  ALTER TABLE monitors ADD COLUMN paused_at INTEGER;
  ALTER TABLE monitors ADD COLUMN paused_until INTEGER;
  ALTER TABLE monitors ADD COLUMN last_pulse_at INTEGER;
  UPDATE monitors SET last_pulse_at = (SELECT max(received_at) FROM pulses WHERE pulses.monitor_id = monitors.id);
  `,
  // 12 (issue 13): the notification list's default (the spec's two kinds) and its unread filter, each on its own
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
  // 13 (issue 23): scoped keys. Every key made before scopes could do everything: it stays "full".
  `
  ALTER TABLE api_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'full' CHECK (scope IN ('full', 'read-only', 'ping', 'badge'));
  `,
  // 14 (issue 21): the event time a monitor's failed-or-fine state rests on (an older pulse changes
  // no state), when it was last resumed ("new" until a pulse after that), and pause and resume as
  // lines of the run history (pulses is rebuilt: SQLite cannot widen a CHECK in place).
  `
  ALTER TABLE monitors ADD COLUMN state_since INTEGER;
  ALTER TABLE monitors ADD COLUMN resumed_at INTEGER;
  UPDATE monitors SET state_since = last_run_at WHERE is_alerted = 1;

  CREATE TABLE pulses_next (
    id INTEGER PRIMARY KEY,
    monitor_id INTEGER NOT NULL REFERENCES monitors(id),
    kind TEXT NOT NULL CHECK (kind IN ('start', 'success', 'fail', 'pause', 'resume')),
    exit_code INTEGER,
    rid TEXT,
    received_at INTEGER NOT NULL,
    duration_ms INTEGER,
    method TEXT NOT NULL,
    remote_address TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    body_truncated INTEGER NOT NULL DEFAULT 0,
    idempotency_key TEXT
  );
  INSERT INTO pulses_next (id, monitor_id, kind, exit_code, rid, received_at, duration_ms, method, remote_address,
                           body, body_truncated, idempotency_key)
    SELECT id, monitor_id, kind, exit_code, rid, received_at, duration_ms, method, remote_address,
           body, body_truncated, idempotency_key FROM pulses;
  DROP TABLE pulses;
  ALTER TABLE pulses_next RENAME TO pulses;
  CREATE INDEX pulses_newest ON pulses(monitor_id, received_at DESC, id DESC);
  CREATE INDEX pulses_by_rid ON pulses(monitor_id, rid, received_at) WHERE rid IS NOT NULL;
  CREATE UNIQUE INDEX pulses_idempotency_key ON pulses(monitor_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
  `,
  // 15 (issue 26, item 11): each delivery's UUID, sent as X-Cronbeat-Delivery on every retry; random v4 ones for rows
  // written before.
  `
  ALTER TABLE deliveries ADD COLUMN uuid TEXT;
  UPDATE deliveries SET uuid = lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)
    || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)));
  CREATE UNIQUE INDEX deliveries_uuid ON deliveries(uuid);
  `,
  // 16 (issue 23): monitors made by a job's own line, matched by slug (unique among a company's live
  // monitors, so two runs starting at once make one); tags (space-separated, sorted); and the
  // history of edits to a monitor's settings, by the API or by its line.
  `
  ALTER TABLE monitors ADD COLUMN slug TEXT;
  ALTER TABLE monitors ADD COLUMN tags TEXT NOT NULL DEFAULT '';
  CREATE UNIQUE INDEX monitors_live_slug ON monitors(company_id, slug) WHERE deleted_at IS NULL AND slug IS NOT NULL;

  CREATE TABLE monitor_changes (
    id INTEGER PRIMARY KEY,
    monitor_id INTEGER NOT NULL REFERENCES monitors(id),
    at INTEGER NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('line', 'api')),
    changes TEXT NOT NULL
  );
  CREATE INDEX monitor_changes_newest ON monitor_changes(monitor_id, at DESC, id DESC);
  `,
  // 17 (issue 21): when a monitor's failure began (a recovery says after how long), deliveries folded into a
  // digest (the lead delivery carries the others: folded_into is its id), the channel's recent sends for the
  // burst rule, the agent's settings (the public URL), and each notification's alert as data (agent/domain/alert.ts),
  // kept beside the spec's data so the API's notifications stay as the spec has them.
  `
  ALTER TABLE notifications ADD COLUMN alert TEXT;
  ALTER TABLE monitors ADD COLUMN failed_at INTEGER;
  UPDATE monitors SET failed_at = updated_at WHERE is_alerted = 1;
  ALTER TABLE deliveries ADD COLUMN folded_into INTEGER;
  CREATE INDEX deliveries_folded ON deliveries(folded_into) WHERE folded_into IS NOT NULL;
  CREATE INDEX deliveries_recent ON deliveries(channel_id, last_attempt_at) WHERE last_attempt_at IS NOT NULL;
  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  );
  `,
  // 18 (issue 21.15): when each server's quiet watcher is notified (three intervals after its last report; an
  // hour each when it did not say: quietAlertAt in agent/domain/quietServers.ts, computed here once for the
  // reports already kept), and since when it was notified as quiet (null: not quiet), so each is raised once.
  `
  ALTER TABLE server_reports ADD COLUMN quiet_alert_at INTEGER;
  ALTER TABLE server_reports ADD COLUMN quiet_since INTEGER;
  UPDATE server_reports SET quiet_alert_at = last_report_at + 3 * coalesce(interval_seconds * 1000, 3600000);
  CREATE INDEX server_reports_quiet_due ON server_reports(quiet_alert_at) WHERE quiet_since IS NULL;
  `,
  // 19 (issue 21.14): reminders. A channel may repeat a still-failed monitor's alert every N hours (null: never);
  // each failure sent to such a channel waits here for its next reminder, until the monitor recovers or is paused.
  `
  ALTER TABLE channels ADD COLUMN remind_every_hours INTEGER;
  CREATE TABLE reminders (
    monitor_id INTEGER NOT NULL REFERENCES monitors(id),
    channel_id INTEGER NOT NULL REFERENCES channels(id),
    notification_id TEXT NOT NULL REFERENCES notifications(id),
    next_at INTEGER NOT NULL,
    PRIMARY KEY (monitor_id, channel_id)
  );
  CREATE INDEX reminders_due ON reminders(next_at);
  `,
  // 20 (issue 22): a failed monitor's reason as data (a MonitorReason, agent/domain/alert.ts) beside alert_reason's
  // words, so the dashboard writes its times in the viewer's zone without reading them back out of the words. A monitor
  // failed before keeps its words; its data is taken from the alert of the failure notification that carried the
  // same words, where there is one (null otherwise: the words are shown as they are).
  `
  ALTER TABLE monitors ADD COLUMN alert_reason_data TEXT;
  UPDATE monitors SET alert_reason_data = (
    SELECT json_extract(n.alert, '$.reason') FROM notifications n
    WHERE n.alert IS NOT NULL AND json_extract(n.alert, '$.event') = 'monitor.failed'
      AND json_extract(n.alert, '$.monitor.id') = monitors.id
      AND json_extract(n.alert, '$.reason.kind') IN ('missed', 'not_finished', 'failed')
      AND json_extract(n.data, '$.description') = monitors.alert_reason
    ORDER BY n.created_at DESC LIMIT 1)
  WHERE is_alerted = 1;
  `,
];
