import { roundOneMigrations } from './migrationsRoundOne';
import { roundTwoMigrations } from './migrationsRoundTwo';
import { nextMigrations } from './migrationsNext';

/**
 * The schema, as an ordered list: entry N brings a database from user_version N to N+1.
 * Append new entries; never edit one that has shipped. Times are integer milliseconds (UTC).
 * Earlier rounds' entries are in their own files (shipped, never edited); this round's follow here.
 */
export const migrations: string[] = [
  ...roundOneMigrations, // 1–7
  ...roundTwoMigrations, // 8–12
  // 13: scoped keys. Every key made before scopes could do everything: it stays "full".
  `
  ALTER TABLE api_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'full' CHECK (scope IN ('full', 'read-only', 'ping', 'badge'));
  `,
  // 14: the event time a monitor's failed-or-fine state rests on (an older pulse changes
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
  // 15: each delivery's UUID, sent as X-Cronbeat-Delivery on every retry; random v4 ones for rows
  // written before.
  `
  ALTER TABLE deliveries ADD COLUMN uuid TEXT;
  UPDATE deliveries SET uuid = lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2)
    || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)));
  CREATE UNIQUE INDEX deliveries_uuid ON deliveries(uuid);
  `,
  // 16: monitors made by a job's own line, matched by slug (unique among a company's live
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
  // 17: when a monitor's failure began (a recovery says after how long), deliveries folded into a
  // digest (the lead delivery carries the others: folded_into is its id), the channel's recent sends for the
  // burst rule, the agent's settings (the public URL), and each notification's alert as data (agent/domain/alerts/alert.ts),
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
  // 18: when each server's quiet watcher is notified (three intervals after its last report; an
  // hour each when it did not say; the rule of that release, changed by 27, computed here once for the
  // reports already kept), and since when it was notified as quiet (null: not quiet), so each is raised once.
  `
  ALTER TABLE server_reports ADD COLUMN quiet_alert_at INTEGER;
  ALTER TABLE server_reports ADD COLUMN quiet_since INTEGER;
  UPDATE server_reports SET quiet_alert_at = last_report_at + 3 * coalesce(interval_seconds * 1000, 3600000);
  CREATE INDEX server_reports_quiet_due ON server_reports(quiet_alert_at) WHERE quiet_since IS NULL;
  `,
  // 19: reminders. A channel may repeat a still-failed monitor's alert every N hours (null: never);
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
  // 20: a failed monitor's reason as data (a MonitorReason, agent/domain/alerts/alert.ts) beside alert_reason's
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
  // 21: a snooze's end as data on its run-history line (null for every other line, and for snoozes noted
  // before), so the dashboard writes it in the viewer's zone without reading it back out of the line's words.
  `
  ALTER TABLE pulses ADD COLUMN paused_until INTEGER;
  `,
  // 22: a channel's fresh alerts waiting for their digest, oldest first, so the burst rule's look at them
  // (agent/engine/delivery/digests.ts, before every send) reads a few index entries, not every alert of a burst.
  `
  CREATE INDEX IF NOT EXISTS deliveries_waiting ON deliveries(channel_id, created_at) WHERE status = 'pending' AND attempts = 0 AND folded_into IS NULL;
  `,
  // 23: which key's line made a monitor (only that key's line may pulse it by slug or change it), and
  // how many monitors a key's lines may make (null: the default). Monitors lines made before have no key recorded.
  // Where the company has exactly one live ping key, that key is the only one a crontab could have been given, so
  // its lines keep their monitors through the upgrade instead of all being refused (and missed) at once. Elsewhere no
  // line may claim them until an admin hands each to a key (PUT /api/monitors/{id}/line-key): guessing among several
  // keys would let any of them take the others' monitors over.
  `
  ALTER TABLE monitors ADD COLUMN line_key_id INTEGER REFERENCES api_tokens(id);
  ALTER TABLE api_tokens ADD COLUMN max_monitors INTEGER;
  CREATE INDEX monitors_by_line_key ON monitors(line_key_id) WHERE line_key_id IS NOT NULL AND deleted_at IS NULL;
  UPDATE monitors SET line_key_id = (
      SELECT id FROM api_tokens k WHERE k.company_id = monitors.company_id AND k.scope = 'ping' AND k.revoked_at IS NULL
    )
    WHERE slug IS NOT NULL
      AND EXISTS (SELECT 1 FROM monitor_changes c WHERE c.monitor_id = monitors.id AND c.source = 'line' AND c.changes LIKE '{"created":%')
      AND (SELECT count(*) FROM api_tokens k WHERE k.company_id = monitors.company_id AND k.scope = 'ping' AND k.revoked_at IS NULL) = 1;
  `,
  // 24: maintenance windows, one-off (starts_at, ends_at) or recurring (schedule, timezone, duration in minutes),
  // for the monitors in monitor_ids, those with one of tags (JSON lists), or every monitor when both are empty.
  `
  CREATE TABLE maintenance_windows (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    name TEXT NOT NULL DEFAULT '',
    starts_at INTEGER,
    ends_at INTEGER,
    schedule TEXT,
    timezone TEXT,
    duration INTEGER,
    monitor_ids TEXT NOT NULL DEFAULT '[]',
    tags TEXT NOT NULL DEFAULT '[]',
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX maintenance_windows_company ON maintenance_windows(company_id);
  `,
  // 25: each tag of each monitor as a row, so a tag's badge reads its monitors by an index instead of
  // scanning the company. Kept by triggers from monitors.tags (space-separated, characters that need no
  // JSON escaping), so every way tags are written keeps it right; a soft-deleted monitor keeps its rows.
  `
  CREATE TABLE monitor_tags (
    company_id INTEGER NOT NULL,
    tag TEXT NOT NULL,
    monitor_id INTEGER NOT NULL,
    PRIMARY KEY (company_id, tag, monitor_id)
  ) WITHOUT ROWID;
  CREATE INDEX monitor_tags_by_monitor ON monitor_tags(monitor_id);
  INSERT OR IGNORE INTO monitor_tags (company_id, tag, monitor_id)
    SELECT m.company_id, t.value, m.id FROM monitors m, json_each('["' || replace(m.tags, ' ', '","') || '"]') t WHERE m.tags != '';
  CREATE TRIGGER monitor_tags_insert AFTER INSERT ON monitors WHEN NEW.tags != '' BEGIN
    INSERT OR IGNORE INTO monitor_tags (company_id, tag, monitor_id)
      SELECT NEW.company_id, value, NEW.id FROM json_each('["' || replace(NEW.tags, ' ', '","') || '"]');
  END;
  CREATE TRIGGER monitor_tags_update AFTER UPDATE OF tags, company_id ON monitors BEGIN
    DELETE FROM monitor_tags WHERE monitor_id = OLD.id;
    INSERT OR IGNORE INTO monitor_tags (company_id, tag, monitor_id)
      SELECT NEW.company_id, value, NEW.id FROM json_each('["' || replace(NEW.tags, ' ', '","') || '"]') WHERE NEW.tags != '';
  END;
  CREATE TRIGGER monitor_tags_delete AFTER DELETE ON monitors BEGIN
    DELETE FROM monitor_tags WHERE monitor_id = OLD.id;
  END;
  `,
  // 26: a monitor's max run time in minutes: how long a started run may take before it is stuck (null: no limit of
  // its own; the grace only limits how late a run starts). Null for every monitor made before.
  `
  ALTER TABLE monitors ADD COLUMN max_runtime INTEGER;
  `,
  // 27: one quiet rule for the servers list and the notification (quietAfter in agent/domain/servers/quietAfter.ts: two
  // missed reports and a minute, a watcher that did not say its interval taken as hourly); the notification waited
  // three intervals. The watchers not yet told of as quiet wait for the new moment; those already told of keep theirs.
  `
  UPDATE server_reports SET quiet_alert_at = last_report_at + 2 * coalesce(interval_seconds, 3600) * 1000 + 60000
  WHERE quiet_since IS NULL;
  `,
  // 28: every notification keeps its alert as data, which channels render. One written before had none (a certificate,
  // a server, or any written before migration 17): it gets its own title and description as its reason, so it is sent and
  // shown in the words it always had. The server it names, if any, is kept.
  `
  UPDATE notifications SET alert = json_object(
    'event', CASE json_extract(data, '$.type')
      WHEN 'ssl_certificate' THEN 'certificate'
      WHEN 'server' THEN CASE json_extract(data, '$.status') WHEN 'test' THEN 'test' ELSE 'server' END
      ELSE CASE json_extract(data, '$.status') WHEN 'recovered' THEN 'monitor.recovered' ELSE 'monitor.failed' END
    END,
    'at', strftime('%Y-%m-%dT%H:%M:%S', created_at / 1000, 'unixepoch') || printf('.%03d000Z', created_at % 1000),
    'reason', json_object('kind', 'other', 'title', json_extract(data, '$.title'), 'description', json_extract(data, '$.description')),
    'monitor', NULL,
    'server', CASE WHEN json_extract(data, '$.type') = 'server' AND coalesce(json_extract(data, '$.server_name'), '') != ''
      THEN json_object('id', nullif(json_extract(data, '$.type_id'), 0), 'name', json_extract(data, '$.server_name')) END,
    'run', NULL,
    'expected_at', NULL
  )
  WHERE alert IS NULL;
  `,
  // 29: alert after N failures in a row and flapping (agent/domain/monitors/failureStreak.ts, flapping.ts): the
  // setting (1: the first failure alerts, as before), the due times of the current streak's failed runs (JSON
  // list of ms), whether the current failure was alerted (every failed monitor before this was), the recent
  // alerting changes while they may flap (JSON, null: none), and when a flapping monitor is steady again.
  `
  ALTER TABLE monitors ADD COLUMN alert_after INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE monitors ADD COLUMN failures TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE monitors ADD COLUMN alert_sent INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE monitors ADD COLUMN flapping TEXT;
  ALTER TABLE monitors ADD COLUMN steady_at INTEGER;
  CREATE INDEX monitors_steady ON monitors(steady_at) WHERE steady_at IS NOT NULL;
  `,
  // 30: the last period each channel's report covered (its end, ms) and at which frequency, so a restart neither
  // skips nor repeats a report; a report's notification never shows in lists (agent/db/notifications.ts).
  `
  CREATE TABLE channel_reports (
    channel_id INTEGER PRIMARY KEY REFERENCES channels(id),
    frequency TEXT NOT NULL,
    sent_through INTEGER NOT NULL
  );
  `,
  // 31: the unread partial index leaves reports out (they are never listed), as the lists' unread terms do, so
  // counting a company's unread notifications reads the index alone: at a million, 50 ms instead of 600
  // (each entry looked up in the table for its type).
  `
  DROP INDEX notifications_unread;
  CREATE INDEX notifications_unread ON notifications(notifiable_id, created_at DESC, id DESC)
    WHERE read_at IS NULL AND type != 'App\\Notifications\\ChannelReportNotification';
  `,
  // 32: a server alert's Idempotency-Key (a watcher that lost the answer sends the alert again with the same
  // key: it is stored once) and the notification it raised, which a repeat answers with.
  `
  ALTER TABLE server_alerts ADD COLUMN idempotency_key TEXT;
  ALTER TABLE server_alerts ADD COLUMN notification_id TEXT;
  CREATE UNIQUE INDEX server_alerts_key ON server_alerts(server_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
  `,
  // 33: the recipients an email delivery is still owed (a JSON list of addresses), once its mail server took the
  // others and deferred these (4xx, try again later): its retries go to them alone. Null: the channel's own.
  `
  ALTER TABLE deliveries ADD COLUMN recipients TEXT;
  `,
  // 34: a monitor's changes between failed and fine that raised no failed or recovered notification (flapping
  // folded them or kept them quiet; short of alert after N), so a report counts the failed time as its status showed it.
  `
  CREATE TABLE quiet_changes (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL,
    monitor_id INTEGER NOT NULL,
    at INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('failed', 'recovered')),
    reason TEXT
  );
  CREATE INDEX quiet_changes_by_time ON quiet_changes(company_id, at, id);
  `,
  // 35: what the channels were last told of a certificate when a maintenance window held its news (a JSON
  // object: status, fingerprint_sha256, reminder_days), so the check at the window's end tells it once, if
  // it is still news; null when nothing is held.
  `
  ALTER TABLE ssl_certificates ADD COLUMN held TEXT;
  `,
  // 36: the notifications that may be done with (read, or a report, which is never listed), oldest first per company,
  // so pruning them (agent/engine/notificationPruning.ts) walks those alone, never the unread ones it keeps.
  `
  CREATE INDEX notifications_done ON notifications(notifiable_id, created_at, id)
    WHERE read_at IS NOT NULL OR type = 'App\\Notifications\\ChannelReportNotification';
  `,
  ...nextMigrations, // 37–
];
