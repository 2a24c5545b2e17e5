import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { presentMonitor } from '../../agent/api/present/present';
import { openStore, type Store } from '../../agent/db/store';
import { newMonitorTiming } from '../../agent/domain/monitors/dueTime';
import type { EngineContext } from '../../agent/engine/engineContext';
import { AgentEvents, type AgentEvent } from '../../agent/engine/events';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { createPulseRecorder } from '../../agent/engine/monitors/pulseBatch';
import type { ReceivedPulse } from '../../agent/engine/monitors/pulses';
import { stepAt } from '../helpers/loopStep';
import { RecordingNotifier } from '../helpers/recordingNotifier';
import { tempDir } from '../helpers/testAgent';

export const at = (iso: string) => Date.parse(iso);

/**
 * A real store in a temporary folder (or in `dir`), the monitor loop's failer over it, and what it
 * announced. Steps and pulses take the roads the agent's own take: the loop's step (in slices)
 * and the pulse batch.
 */
export function engineFixture(createdAt: number, dir = tempDir('cronbeat-engine-')) {
  const store: Store = openStore(join(dir, 'cronbeat.sqlite'), createdAt);
  const events = new AgentEvents();
  const announced: AgentEvent[] = [];
  events.subscribe((event) => announced.push(event));
  const notifier = new RecordingNotifier();
  const ctx: EngineContext = { store, events, notifier };
  const failer = createOverdueFailer(ctx);
  const pulses = createPulseRecorder(ctx);

  return {
    store,
    events,
    notifier,
    announced,
    failer,
    /** The monitor loop's step at `now` (every slice at `now`), to its end. */
    step(now: number): Promise<void> {
      return stepAt(failer, now);
    },
    /** A monitor created at `now` (default: the fixture's creation time), as the API creates one. */
    monitor(input: {
      name?: string;
      schedule: string;
      timezone?: string;
      duration: number;
      maxRuntime?: number | null;
      projectId?: number | null;
      now?: number;
    }) {
      const timezone = input.timezone ?? 'UTC';
      const now = input.now ?? createdAt;
      const timing = newMonitorTiming({ schedule: input.schedule, timezone, durationMinutes: input.duration }, now);
      return store.monitors.create({
        companyId: 1,
        name: input.name ?? 'backup',
        projectId: input.projectId ?? null,
        token: randomUUID(),
        timezone,
        schedule: input.schedule,
        duration: input.duration,
        maxRuntime: input.maxRuntime ?? null,
        ...timing,
        now,
      });
    },
    /**
     * Sends a pulse for the monitor with `token` received at `now` (counting for `now` unless `at`
     * says otherwise), through the pulse batch as the API does; true once stored, false when no live monitor has the token.
     */
    pulse(token: string, now: number, pulse: Partial<ReceivedPulse> = {}): Promise<boolean> {
      return pulses.record(
        { token, kind: 'success', exitCode: null, rid: null, at: now, method: 'GET', remoteAddress: '127.0.0.1', body: '', bodyTruncated: false, ...pulse },
        now,
      );
    },
    reload(id: number) {
      return store.monitors.find(1, id)!;
    },
    /** The monitor's alert_reason as the API shows it: words made from its reason as data (the column keeps none). */
    alertReason(id: number) {
      return presentMonitor(store.monitors.find(1, id)!, '', null).alert_reason;
    },
    notifications() {
      return store.notifications.page(1, 100, 0).reverse();
    },
    close() {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
