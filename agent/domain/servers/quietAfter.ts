/**
 * When a server's crontab watcher counts as quiet: it reports with every snapshot, so two
 * missed reports plus a minute of slack (for a busy machine or a slow network) mean it died or
 * cannot reach the agent. A watcher that did not say its interval is given an hour.
 */

const SLACK_MS = 60_000;
const UNKNOWN_INTERVAL_MS = 3_600_000;

/** The moment a watcher that last reported at `lastReportAt` turns quiet. */
export function quietAfter(lastReportAt: number, intervalSeconds: number | null): number {
  const interval = intervalSeconds === null ? UNKNOWN_INTERVAL_MS : intervalSeconds * 1000;
  return lastReportAt + 2 * interval + SLACK_MS;
}

/** True when the watcher missed its reports; false when it never reported (nothing to expect yet). */
export function isQuiet(lastReportAt: number | null, intervalSeconds: number | null, now: number): boolean {
  return lastReportAt !== null && now > quietAfter(lastReportAt, intervalSeconds);
}
