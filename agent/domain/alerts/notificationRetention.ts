/*
 * How long notifications are kept. Every failure, recovery, certificate and server alert writes
 * one, and nothing took them away: years of a flapping job made the table, the database and every
 * backup grow without end. As Uptime Kuma keeps its heartbeats 180 days by default, and
 * healthchecks.io prunes a check's notifications along with the pings they came with (a bounded
 * history), a notification that is done with goes once it is 180 days old, or once a company has
 * 50,000 newer ones (a burst a day for months would otherwise still fill the disk). Done with: read (a report, never listed, once sent), every delivery
 * sent or given up, its popup shown, and no reminder repeating it. An unread or undelivered one
 * is kept however old, so nothing is lost that someone has not seen or been sent.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** A notification done with goes at this age. */
export const NOTIFICATION_RETENTION_DAYS = 180;

/** A company's newest this many are kept (younger than NOTIFICATION_RETENTION_DAYS); older ones done with go. */
export const NOTIFICATIONS_KEPT_PER_COMPANY = 50_000;

/**
 * Notifications created before the returned time go when done with: those older than the
 * retention period, and those older than the company's NOTIFICATIONS_KEPT_PER_COMPANY-th newest,
 * whose creation time is `oldestKeptAt` (null: the company has no more than that many).
 */
export function pruneBefore(now: number, oldestKeptAt: number | null): number {
  const byAge = now - NOTIFICATION_RETENTION_DAYS * DAY_MS;
  return oldestKeptAt === null ? byAge : Math.max(byAge, oldestKeptAt);
}
