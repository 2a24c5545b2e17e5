import Database from 'better-sqlite3';

/*
 * A database as an older Cronbeat left it, for the tests of a migration: what each migration
 * (numbered as user_version counts them) added, removed again. A new migration adds its line
 * here, or every test that rolls back past it says which one is missing.
 */
const UNDO: Record<number, string> = {
  20: 'ALTER TABLE monitors DROP COLUMN alert_reason_data;',
  21: 'ALTER TABLE pulses DROP COLUMN paused_until;',
  22: 'DROP INDEX deliveries_waiting;',
  23: 'DROP INDEX monitors_by_line_key; ALTER TABLE monitors DROP COLUMN line_key_id; ALTER TABLE api_tokens DROP COLUMN max_monitors;',
  24: 'DROP TABLE maintenance_windows;',
  25: 'DROP TRIGGER monitor_tags_insert; DROP TRIGGER monitor_tags_update; DROP TRIGGER monitor_tags_delete; DROP TABLE monitor_tags;',
  26: 'ALTER TABLE monitors DROP COLUMN max_runtime;',
  27: 'UPDATE server_reports SET quiet_alert_at = last_report_at + 3 * coalesce(interval_seconds * 1000, 3600000) WHERE quiet_since IS NULL;',
  28: "UPDATE notifications SET alert = NULL WHERE json_extract(alert, '$.reason.kind') = 'other';",
  29:
    'DROP INDEX monitors_steady; ALTER TABLE monitors DROP COLUMN steady_at; ALTER TABLE monitors DROP COLUMN flapping; ' +
    'ALTER TABLE monitors DROP COLUMN alert_sent; ALTER TABLE monitors DROP COLUMN failures; ALTER TABLE monitors DROP COLUMN alert_after;',
  30: 'DROP TABLE channel_reports;',
  31: 'DROP INDEX notifications_unread; CREATE INDEX notifications_unread ON notifications(notifiable_id, created_at DESC, id DESC) WHERE read_at IS NULL;',
  32: 'DROP INDEX server_alerts_key; ALTER TABLE server_alerts DROP COLUMN notification_id; ALTER TABLE server_alerts DROP COLUMN idempotency_key;',
  33: 'ALTER TABLE deliveries DROP COLUMN recipients;',
  34: 'DROP TABLE quiet_changes;',
  35: 'ALTER TABLE ssl_certificates DROP COLUMN held;',
  36: 'DROP INDEX notifications_done;',
  37: 'DROP TABLE server_watchers;',
  38: 'DROP INDEX deliveries_retrying;',
  39: 'DROP INDEX quiet_changes_by_monitor;',
  40:
    'DROP INDEX server_watchers_quiet_due; ALTER TABLE server_watchers DROP COLUMN quiet_since; ALTER TABLE server_watchers DROP COLUMN quiet_alert_at; ' +
    'CREATE INDEX server_reports_quiet_due ON server_reports(quiet_alert_at) WHERE quiet_since IS NULL;',
};

/** Rolls the database in `file` back to schema `version`, then runs `then` (old data to plant) before closing it. */
export function rollBackTo(file: string, version: number, then = ''): void {
  const db = new Database(file);
  try {
    for (let current = db.pragma('user_version', { simple: true }) as number; current > version; current--) {
      const undo = UNDO[current];
      if (undo === undefined) throw new Error(`test/helpers/rollBack.ts does not say how to undo migration ${current}`);
      db.exec(undo);
    }
    if (then) db.exec(then);
    db.pragma(`user_version = ${version}`);
  } finally {
    db.close();
  }
}
