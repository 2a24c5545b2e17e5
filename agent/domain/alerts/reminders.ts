import type { Alert, MonitorReason } from './alert';
import { monitorFailedData, type NotifiedMonitor } from './monitorNotifications';
import type { MonitorNotificationData } from './notificationKinds';
import { toApiTimestamp } from '../time/apiTimestamps';

/*
 * Reminders: a channel with `remind_every_hours` gets a still-failed monitor's
 * alert again every N hours, until the monitor recovers or is paused. A reminder is the failure's
 * own alert, told again as "still failing" (event monitor.still_failing), rendered like any alert.
 */

const HOUR = 3_600_000;

/** The kinds of reason a monitor keeps while failed (MonitorReason). */
const MONITOR_REASONS: ReadonlySet<string> = new Set(['missed', 'not_finished', 'stuck', 'failed']);

/** The longest a channel's reminders may be apart: a week. */
export const MAX_REMIND_EVERY_HOURS = 168;

/** When the reminder after one sent at `sentAt` is due; null when the channel does not repeat alerts. */
export function nextReminderAt(sentAt: number, remindEveryHours: number | null): number | null {
  return remindEveryHours === null ? null : sentAt + remindEveryHours * HOUR;
}

/**
 * Whether a due reminder is still wanted: its monitor still failed and not paused, its channel live,
 * repeating and still one the monitor alerts (`routedHere`: its channels changed since, the failure
 * is not told there again; its recovery still goes there), and the failure it tells (last told at
 * `toldAt`) still the one under way: a monitor that recovered and failed again since (`failedAt`
 * later) is on another failure, told when it alerts.
 */
export function reminderWanted(state: {
  isAlerted: boolean;
  paused: boolean;
  monitorDeleted: boolean;
  channelDeleted: boolean;
  routedHere: boolean;
  remindEveryHours: number | null;
  failedAt: number | null;
  toldAt: number;
}): boolean {
  const sameFailure = state.failedAt === null || state.failedAt <= state.toldAt;
  return state.isAlerted && sameFailure && !state.paused && !state.monitorDeleted && !state.channelDeleted && state.routedHere && state.remindEveryHours !== null;
}

/**
 * The failure's alert told again at `now`: still failing, since the failure (`failedAt`, when the
 * monitor turned failed: the first of its N in a row when it alerts after N, as the dashboard says).
 * When what was told is a steady-again alert that said "now failed" (flapping kept the failure
 * itself quiet), it is that failure which is told again: `current`, the monitor's reason now. The
 * reason is the monitor's now in any case (the N-th in a row's last one, for alert after N): a run
 * that came late and failed made a missed run "Failed: …", as the monitor and this notification say.
 */
export function stillFailingAlert(told: Alert, now: number, current: MonitorReason | null, failedAt: number | null): Alert {
  const again = { ...told, event: 'monitor.still_failing' as const, at: toApiTimestamp(now) };
  const since = failedAt === null ? null : toApiTimestamp(failedAt);
  if (told.reason.kind === 'steady') return { ...again, reason: current ?? told.reason, failing_since: since ?? told.reason.failed_since ?? told.at };
  const reason = current === null ? told.reason : told.reason.kind === 'failed_times' ? { ...told.reason, last: current } : MONITOR_REASONS.has(told.reason.kind) ? current : told.reason;
  return { ...again, reason, failing_since: since ?? told.failing_since ?? told.at };
}

/** The notification data of a reminder: the monitor as it is now, status `still_failing`. */
export function stillFailingData(monitor: NotifiedMonitor): MonitorNotificationData {
  return { ...monitorFailedData(monitor), status: 'still_failing', title: `${monitor.name} is still failing` };
}
