import { applyPulse, type PulseInput } from '../../domain/monitors/pulseEffect';
import { pulseStateAtClock } from '../../domain/monitors/clockBack';
import { alertRun, type AlertReason } from '../../domain/alerts/alert';
import { toNullableApiTimestamp } from '../../domain/time/apiTimestamps';
import { IdempotencyKeyReusedError, isRetryOf, runDurationMs } from '../../domain/monitors/pulseInput';
import { transitionPopup } from '../../domain/alerts/monitorPopups';
import { dueTimeOfRun, isPausedAt } from '../../domain/monitors/dueTime';
import type { MonitorRow } from '../../db/monitors';
import type { EngineContext } from '../engineContext';
import { streakReason } from '../../domain/monitors/failureStreak';
import { pulseInMaintenance } from './maintenance';
import { windowHoldsPulse } from '../../domain/maintenance/windows';
import { storeResume } from './monitorEdits';
import { pauseOf, pulseStateOf, timingUpdate } from './monitorState';
import { announceTransition, type RecordedTransition } from './transitions';
import { raiseChange } from './alertGate';

/** A pulse as received over HTTP. `at` is when it counts: now, or a replayed pulse's send time. */
export interface ReceivedPulse extends PulseInput {
  token: string;
  method: string;
  remoteAddress: string;
  body: string;
  bodyTruncated: boolean;
  /** The client's Idempotency-Key: a pulse is stored once per key and monitor. */
  idempotencyKey?: string | null;
  /** The run's duration as the client measured it (X-Cronbeat-Duration-Ms), for an end pulse. */
  measuredDurationMs?: number | null;
}

/** What storing a pulse changed, for announcePulse once its transaction has committed. */
export interface StoredPulse {
  companyId: number;
  monitorId: number;
  transition: RecordedTransition | null;
  /** A retry of a pulse stored already (same idempotency key): it changed nothing. */
  repeated?: boolean;
}

/**
 * Stores a pulse, inside the caller's transaction (the pulse batch's, agent/engine/monitors/pulseBatch.ts):
 * the run history, the monitor's new state and due time, and a failure or a recovery when it
 * makes one (notification). Null when no live monitor has that token. Call announcePulse with
 * the result once the transaction has committed.
 * A retry (an idempotency key stored already for the monitor) changes nothing and is answered
 * as the first; a different pulse under a stored key throws IdempotencyKeyReusedError.
 */
export function storePulse(ctx: EngineContext, pulse: ReceivedPulse, now: number): StoredPulse | null {
  const { store } = ctx;
  let monitor = store.pulseMonitors.byToken(pulse.token);
  if (!monitor) return null;
  // A snooze that ended before the loop woke for it (a frozen or busy agent) ends now, so its pulse counts.
  if (monitor.paused_at !== null && !isPausedAt(pauseOf(monitor), now)) {
    monitor = storeResume(ctx, monitor, now);
  }
  const key = pulse.idempotencyKey ?? null;
  if (key !== null) {
    const first = store.pulses.withKey(monitor.id, key);
    if (first && !isRetryOf(first, pulse)) throw new IdempotencyKeyReusedError();
    if (first) return { companyId: monitor.company_id, monitorId: monitor.id, transition: null, repeated: true };
  }
  // A paused monitor, or one in maintenance (when the pulse came or when it counts for), keeps its history,
  // but a pulse changes nothing else and raises nothing: a failure before stays failed, a fine monitor waits as before.
  // A state recorded while the clock was ahead (set back since) is brought back to it first, so this pulse counts.
  const state = pulseStateAtClock(pulseStateOf(monitor), now);
  const held = monitor.paused_at !== null || (windowHoldsPulse(state, pulse.kind) && pulseInMaintenance(ctx, monitor, now, pulse.at));
  const ridStartedAt = pulse.kind === 'start' || pulse.rid === null ? null : store.pulses.startTimeOf(monitor.id, pulse.rid, pulse.at);
  // An end that closes the run in progress hands it on to an overlapping run still open, which is then judged by its own deadline.
  const openStart =
    held || pulse.kind === 'start' || state.runningSince === null
      ? null
      : store.pulses.openStartSince(monitor.id, Math.max(state.runningSince, ridStartedAt ?? state.runningSince), pulse.rid, state.runningRid);
  const effect = held ? null : applyPulse(state, pulse, ridStartedAt, openStart);
  // A pulse that fails or recovers the monitor reads it back as written (RETURNING) for its alert; others need no row.
  let changed: MonitorRow | null = null;
  if (effect?.transition) changed = store.monitors.saveTransition(timingUpdate(monitor.id, effect.state, now, pulse.at));
  else if (effect) store.monitors.saveTiming(timingUpdate(monitor.id, effect.state, now, pulse.at));
  else store.monitors.notePulse(monitor.id, pulse.at);

  const startedAt = pulse.kind === 'start' ? null : (ridStartedAt ?? effect?.pairedStartAt ?? null);
  const durationMs = runDurationMs(pulse.kind, startedAt, pulse.at, pulse.measuredDurationMs ?? null);
  store.pulses.add({
    monitorId: monitor.id,
    kind: pulse.kind,
    exitCode: pulse.exitCode,
    rid: pulse.rid,
    receivedAt: pulse.at,
    durationMs,
    method: pulse.method,
    remoteAddress: pulse.remoteAddress,
    body: pulse.body,
    bodyTruncated: pulse.bodyTruncated,
    idempotencyKey: key,
    keptBefore: monitor.pulses_kept,
  });

  let transition: RecordedTransition | null = null;
  if (effect?.transition && changed) {
    const run = alertRun({ startedAt, endedAt: pulse.at, durationMs, exitCode: pulse.exitCode, body: pulse.body, bodyTruncated: pulse.bodyTruncated });
    // The N-th failure in a row says so (and when the others were due); a recovery says since when it failed.
    const reason: AlertReason =
      effect.transition === 'failed'
        ? streakReason({ kind: 'failed', exit_code: pulse.exitCode }, effect.state.failures ?? [])
        : { kind: 'recovered', failed_since: toNullableApiTimestamp(monitor.failed_at), exit_code: pulse.exitCode };
    const expectedAt = dueTimeOfRun(monitor, monitor.duration, startedAt ?? pulse.at);
    transition = raiseChange(ctx, changed, effect.transition, now, { reason, run, expectedAt });
  } else if (effect && effect.state.isAlerted !== state.isAlerted) {
    // Failed short of its alert after N, or quietly recovered from such a failure: no notification tells it, a report counts it.
    store.quietChanges.record(monitor.company_id, monitor.id, now, effect.state.isAlerted ? 'failed' : 'recovered', effect.state.isAlerted ? 'failed' : null);
  }
  return { companyId: monitor.company_id, monitorId: monitor.id, transition };
}

/** Tells live views and the desktop what a committed pulse changed. */
export function announcePulse(ctx: EngineContext, stored: StoredPulse): void {
  if (stored.repeated) return;
  if (stored.transition) {
    announceTransition(ctx, stored.transition);
    ctx.notifier.show(transitionPopup(stored.transition));
    ctx.store.popupOutbox.markShown([stored.transition.notificationId]);
  } else {
    ctx.events.emit({ type: 'monitor.changed', companyId: stored.companyId, monitorId: stored.monitorId });
  }
}
