/**
 * The schema's entries from 37 on (migrations.ts, which lists them all in order, reached its
 * length). Append new entries; never edit one that has shipped.
 */
export const nextMigrations: string[] = [
  // 37: each watcher of a server's own count of watched jobs (a crontab watcher of /etc/crontab and one of a
  // user's crontab or of run-parts' folders, a timers watcher), so the server shows their sum and a report
  // replaces only its own watcher's part; '' is a watcher that does not say which it is. server_reports.jobs
  // keeps the sum. Empty at first: a count from before could be any watcher's, and each one's next report gives its own.
  `
  CREATE TABLE server_watchers (
    server_id INTEGER NOT NULL REFERENCES servers(id),
    watcher TEXT NOT NULL,
    jobs INTEGER,
    last_report_at INTEGER NOT NULL,
    interval_seconds INTEGER,
    PRIMARY KEY (server_id, watcher)
  );
  `,
  // 38: a channel's deliveries waiting to be tried again, by id, so the order check before every send (a new
  // alert never overtakes one its channel is retrying: deliveryOrder.ts) reads those few, not every pending
  // alert of the channel: over a burst's 10,000 it took up to 22 ms a send, the event loop held meanwhile.
  `
  CREATE INDEX IF NOT EXISTS deliveries_retrying ON deliveries(channel_id, id) WHERE status = 'pending' AND attempts > 0 AND next_attempt_at IS NOT NULL;
  `,
  // 39: a monitor's quiet changes, so pruning (agent/engine/notificationPruning.ts) deletes a deleted monitor's
  // in batches of its own rows: quiet_changes_by_time would walk every change of its company to find them.
  `
  CREATE INDEX IF NOT EXISTS quiet_changes_by_monitor ON quiet_changes(monitor_id);
  `,
  // 40: each watcher of a server is quiet on its own (its quiet moment, and since when it is quiet once told), so one
  // that keeps reporting no longer hides one that stopped, nor tells it back; the server is quiet while any of its
  // watchers is (serverQuietAt in agent/domain/servers/quietAfter.ts). The watcher that reported last takes the
  // server's state as it was (its maintenance hold or outage grace, told or not); the others their own moment, and
  // one already past it is told at the loop's next step (it stopped while another reported). A server whose report
  // came before watchers named themselves gets its one unnamed watcher. server_reports keeps the last report alone.
  `
  ALTER TABLE server_watchers ADD COLUMN quiet_alert_at INTEGER;
  ALTER TABLE server_watchers ADD COLUMN quiet_since INTEGER;
  INSERT OR IGNORE INTO server_watchers (server_id, watcher, jobs, last_report_at, interval_seconds)
    SELECT server_id, '', jobs, last_report_at, interval_seconds FROM server_reports
    WHERE server_id NOT IN (SELECT server_id FROM server_watchers);
  UPDATE server_watchers SET
    quiet_alert_at = (SELECT r.quiet_alert_at FROM server_reports r WHERE r.server_id = server_watchers.server_id),
    quiet_since = (SELECT r.quiet_since FROM server_reports r WHERE r.server_id = server_watchers.server_id)
  WHERE last_report_at = (SELECT r.last_report_at FROM server_reports r WHERE r.server_id = server_watchers.server_id);
  UPDATE server_watchers SET quiet_alert_at = last_report_at + 2 * coalesce(interval_seconds, 3600) * 1000 + 60000
  WHERE quiet_alert_at IS NULL;
  DROP INDEX server_reports_quiet_due;
  CREATE INDEX server_watchers_quiet_due ON server_watchers(quiet_alert_at) WHERE quiet_since IS NULL;
  `,
];
