/**
 * Migrations 1–7, round 1: the spec's resources, certificates, the engine, sign-in codes, the
 * crontab watcher, the popup outbox. Shipped: never edit one (agent/db/migrations.ts lists them in order).
 */
export const roundOneMigrations: string[] = [
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
];
