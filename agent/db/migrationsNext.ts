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
];
