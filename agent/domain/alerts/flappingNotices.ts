import type { AlertReason } from './alert';
import { alertMs } from './alert';
import { describeMoment } from './reasonPieces';
import { monitorFailedData, type NotifiedMonitor } from './monitorNotifications';
import { NOTIFICATION_KINDS, type MonitorNotificationData } from './notificationKinds';
import { toApiTimestamp, toNullableApiTimestamp } from '../time/apiTimestamps';
import { firstChange, FLAPPING_WINDOW_MS, STEADY_AFTER_MS, type FlapState } from './flapping';
import { flappingWords, steadyWords } from './streakWords';

type Flapping = Extract<AlertReason, { kind: 'flapping' }>;
type Steady = Extract<AlertReason, { kind: 'steady' }>;

/** The reason of a flapping alert, `state` being the flap state that made it, the monitor `failed` now or not. */
export function flappingReason(state: FlapState, failed: boolean, at: number): Flapping {
  return {
    kind: 'flapping',
    changes: state.changes.length,
    since: toApiTimestamp(firstChange(state) ?? at),
    window_minutes: FLAPPING_WINDOW_MS / 60_000,
    failed,
  };
}

/** The reason of a steady-again alert for a monitor that flapped (`state`), failed since `failedAt` or fine (null). */
export function steadyReason(state: FlapState, failedAt: number | null): Steady {
  return {
    kind: 'steady',
    flapping_since: toApiTimestamp(state.since ?? 0),
    changes: state.count,
    steady_minutes: STEADY_AFTER_MS / 60_000,
    failed: failedAt !== null,
    failed_since: toNullableApiTimestamp(failedAt),
  };
}

/** The notification data of a flapping or steady alert: the monitor's fields, its own status, title and words (UTC beside the monitor's zone). */
export function flappingNoticeData(monitor: NotifiedMonitor, reason: Flapping | Steady): MonitorNotificationData {
  const at = (iso: string) => describeMoment(alertMs(iso) ?? 0, monitor.timezone);
  const flapping = reason.kind === 'flapping';
  return {
    ...monitorFailedData(monitor),
    status: flapping ? 'flapping' : 'steady',
    title: flapping ? `${monitor.name} is flapping` : `${monitor.name} is steady again`,
    description: flapping ? flappingWords(reason, at) : steadyWords(reason, at),
    icon: flapping ? NOTIFICATION_KINDS.monitorFlapping.icon : NOTIFICATION_KINDS.monitorSteady.icon,
  };
}
