/**
 * When a server's crontab watcher counts as quiet: it reports with every snapshot, so two
 * missed reports plus a minute of slack (for a busy machine or a slow network) mean it died or
 * cannot reach the agent. A watcher that did not say its interval is taken to report hourly.
 * This one moment drives both the servers list's `quiet` flag and the quiet notification, so
 * the dashboard never shows a watcher quiet that no alert has told of, nor the other way round.
 */

const SLACK_MS = 60_000;
/** The interval of a watcher that did not say its own. */
export const UNKNOWN_INTERVAL_SECONDS = 3600;

/** The last moment a watcher that last reported at `lastReportAt` still counts as reporting; a moment later it is quiet. */
export function quietAfter(lastReportAt: number, intervalSeconds: number | null): number {
  return lastReportAt + 2 * (intervalSeconds ?? UNKNOWN_INTERVAL_SECONDS) * 1000 + SLACK_MS;
}

/** True when the watcher missed its reports; false when it never reported (nothing to expect yet). */
export function isQuiet(lastReportAt: number | null, intervalSeconds: number | null, now: number): boolean {
  return lastReportAt !== null && now > quietAfter(lastReportAt, intervalSeconds);
}
