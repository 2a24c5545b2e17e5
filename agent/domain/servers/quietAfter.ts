import { outageGraces, type Outage } from '../monitors/dueTime';

/**
 * When a server's crontab watcher counts as quiet: it reports with every snapshot, so two
 * missed reports plus a minute of slack (for a busy machine or a slow network) mean it died or
 * cannot reach the agent. A watcher that did not say its interval is taken to report hourly.
 * This one moment drives both the servers list's `quiet` flag and the quiet notification, so
 * the dashboard never shows a watcher quiet that no alert has told of, nor the other way round.
 * A server may have several watchers (a crontab watcher and a timers watcher, one per set of
 * files): each is quiet on its own, and the server with them (serverQuietAt).
 */

const SLACK_MS = 60_000;
/** The interval of a watcher that did not say its own. */
export const UNKNOWN_INTERVAL_SECONDS = 3600;

/** The last moment a watcher that last reported at `lastReportAt` still counts as reporting; a moment later it is quiet. */
export function quietAfter(lastReportAt: number, intervalSeconds: number | null): number {
  return lastReportAt + 2 * (intervalSeconds ?? UNKNOWN_INTERVAL_SECONDS) * 1000 + SLACK_MS;
}

/**
 * The quiet moment of a watcher after Cronbeat did not run (`outage`: stopped, asleep, frozen):
 * one that passed meanwhile counts again from the outage's end, as if the watcher had reported
 * then, since no watcher could reach Cronbeat (a monitor's run gets a grace by the same rule,
 * outageGraces). Null when the outage leaves it as it was.
 */
export function quietAfterOutage(quietAlertAt: number, intervalSeconds: number | null, outage: Outage): number | null {
  return outageGraces(quietAlertAt, null, outage) ? quietAfter(outage.to, intervalSeconds) : null;
}

/** True when the watcher passed its quiet moment (quietAfter, or quietAfterOutage's after Cronbeat was down): the moment the loop raises its notification. */
export function isQuiet(report: { quiet_alert_at: number }, now: number): boolean {
  return now > report.quiet_alert_at;
}

/**
 * A server's quiet moment, folded over the quiet moments of its watchers (from null, none yet):
 * the earliest. So the server is quiet while any of its watchers is, and a report of one watcher
 * (however late, however long its interval) never makes another one's silence count as
 * reporting, whatever order they report in. The store folds each server's watchers with it in SQLite.
 */
export function serverQuietAt(soFar: number | null, watcherQuietAt: number): number {
  return soFar === null ? watcherQuietAt : Math.min(soFar, watcherQuietAt);
}
