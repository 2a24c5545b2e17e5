import { applyPulse, type PulseInput } from '../domain/pulseEffect';
import { transitionPopup } from '../domain/monitorPopups';
import type { EngineContext } from './engineContext';
import { pulseStateOf, timingUpdate } from './monitorState';
import { announceTransition, recordTransition, type RecordedTransition } from './transitions';

/** A pulse as received over HTTP. `at` is when it counts: now, or a replayed pulse's send time. */
export interface ReceivedPulse extends PulseInput {
  token: string;
  method: string;
  remoteAddress: string;
  body: string;
  bodyTruncated: boolean;
}

/**
 * Records a pulse: the run history, the monitor's new state and due time, and a failure or a
 * recovery when it makes one (notification, live-view events, one popup). Returns false when
 * no live monitor has that token. Never waits for the popup.
 */
export function recordPulse(ctx: EngineContext, pulse: ReceivedPulse, now: number): boolean {
  const { store } = ctx;
  const outcome = store.db.transaction(() => {
    const monitor = store.monitors.findByToken(pulse.token);
    if (!monitor) return null;
    const effect = applyPulse(pulseStateOf(monitor), pulse);
    store.monitors.saveTiming(timingUpdate(monitor.id, effect.state, now));

    const startedAt =
      pulse.kind === 'start'
        ? null
        : ((pulse.rid === null ? null : store.pulses.startTimeOf(monitor.id, pulse.rid, pulse.at)) ?? effect.pairedStartAt);
    store.pulses.add({
      monitorId: monitor.id,
      kind: pulse.kind,
      exitCode: pulse.exitCode,
      rid: pulse.rid,
      receivedAt: pulse.at,
      durationMs: startedAt === null ? null : pulse.at - startedAt,
      method: pulse.method,
      remoteAddress: pulse.remoteAddress,
      body: pulse.body,
      bodyTruncated: pulse.bodyTruncated,
    });

    let transition: RecordedTransition | null = null;
    if (effect.transition) {
      const changed = store.monitors.findByToken(pulse.token)!;
      transition = recordTransition(ctx, changed, effect.transition, now);
    }
    return { companyId: monitor.company_id, monitorId: monitor.id, transition };
  })();

  if (!outcome) return false;
  if (outcome.transition) {
    announceTransition(ctx, outcome.transition);
    ctx.notifier.show(transitionPopup(outcome.transition));
  } else {
    ctx.events.emit({ type: 'monitor.changed', companyId: outcome.companyId, monitorId: outcome.monitorId });
  }
  return true;
}
