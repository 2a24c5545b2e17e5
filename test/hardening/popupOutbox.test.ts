import { afterEach, describe, expect, it } from 'vitest';
import { announcePulse, storePulse, type ReceivedPulse } from '../../agent/engine/monitors/pulses';
import { READ_AT_MOST } from '../../agent/engine/popups/pendingPopups';
import { NOTIFICATION_KINDS, type MonitorNotificationData } from '../../agent/domain/alerts/notificationKinds';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import type { Notifier } from '../../agent/engine/popups/notifier';
import { RecordingNotifier } from '../helpers/recordingNotifier';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';
import type { Alert } from '../../agent/domain/alerts/alert';
import { stepAt } from '../helpers/loopStep';

/*
 * Alerts as an outbox: a failure (or recovery) committed but whose popup was not shown when the
 * agent died is shown after the restart, once. The death is the notifier throwing at the moment
 * it would show the popup, after the transaction committed: exactly where a crash would hit.
 */

const T0 = Date.UTC(2026, 10, 21, 9, 0, 30);
const LATER = T0 + 10 * 60_000;
const dying: Notifier = {
  show() {
    throw new Error('the agent died before the popup was shown');
  },
};

let agents: TestAgent[] = [];
afterEach(async () => {
  for (const agent of agents) await agent.close();
  agents = [];
});

async function start(dataDir: string, clock: number, notifier: Notifier = new RecordingNotifier()) {
  const agent = await startTestAgent({ dataDir, clock: () => clock, notifier });
  agents.push(agent);
  return agent;
}

async function createMonitors(agent: TestAgent, names: string[]) {
  const made: Array<{ id: number; token: string }> = [];
  for (const name of names) {
    const response = await agent.api('/api/monitors', { method: 'POST', json: { name, timezone: 'UTC', schedule: '* * * * *', duration: 1 } });
    made.push(await response.json());
  }
  return made;
}

async function restart(agent: TestAgent, clock: number) {
  await agent.close();
  agents = agents.filter((a) => a !== agent);
  const notifier = new RecordingNotifier();
  const next = await start(agent.dataDir, clock, notifier);
  return { agent: next, popups: notifier.take() };
}

describe('popups as an outbox', () => {
  it('shows a failure decided just before the agent died after the restart, then never again', async () => {
    const first = await start(tempDir(), T0);
    await createMonitors(first, ['backup', 'db dump']);
    const failer = createOverdueFailer({ store: first.store, events: first.events, notifier: dying });
    await expect(stepAt(failer, LATER)).rejects.toThrow('died');
    expect(first.store.monitors.list(1).map((m) => m.is_alerted)).toEqual([1, 1]); // committed

    const { agent: second, popups } = await restart(first, LATER + 60_000);
    expect(popups.map((p) => p.title)).toEqual(['✗ backup missed its run', '✗ db dump missed its run']);
    expect(popups[0].body).toMatch(/^Missed: the run due \w{3} \d+ \w{3} \d{2}:\d{2} UTC did not come \(grace 1 min\); no run has come yet\.$/);
    expect(popups[0].route).toMatch(/^\/monitors\/\d+$/);

    const { popups: again } = await restart(second, LATER + 120_000);
    expect(again).toEqual([]);
  });

  it('shows many as one summary', async () => {
    const first = await start(tempDir(), T0);
    await createMonitors(first, ['a', 'b', 'c', 'd', 'e']);
    await expect(stepAt(createOverdueFailer({ store: first.store, events: first.events, notifier: dying }), LATER)).rejects.toThrow('died');
    const { popups } = await restart(first, LATER);
    expect(popups).toHaveLength(1);
    // In the one vocabulary, from each failure's alert as data: their runs did not come.
    expect(popups[0].title).toBe('5 monitors missed');
    expect(popups[0].body).toMatch(/^Missed: a, b, c, d, e/);
  });

  it('shows a failure reported by a pulse (and its recovery) whose popups were lost', async () => {
    const first = await start(tempDir(), T0);
    const [monitor] = await createMonitors(first, ['deploy']);
    // The pulse batch's two halves (agent/engine/pulseBatch.ts), a group of one: the death must surface
    // here, not in the batch's setImmediate, where it would take the test's process with it.
    const ctx = { store: first.store, events: first.events, notifier: dying };
    const pulse = (kind: 'fail' | 'success', at: number) => {
      const received: ReceivedPulse = { token: monitor.token, kind, exitCode: kind === 'fail' ? 3 : null, rid: null, at, method: 'GET', remoteAddress: '127.0.0.1', body: '', bodyTruncated: false };
      const stored = first.store.db.transaction(() => storePulse(ctx, received, at))();
      if (stored) announcePulse(ctx, stored);
    };
    expect(() => pulse('fail', T0 + 1000)).toThrow('died');
    expect(() => pulse('success', T0 + 2000)).toThrow('died');
    const { popups } = await restart(first, T0 + 3000);
    expect(popups.map((p) => p.title)).toEqual(['✗ deploy failed (exit 3)', '✓ deploy recovered']);
  });

  it('does not show again after a restart what was shown while running', async () => {
    const notifier = new RecordingNotifier();
    const first = await start(tempDir(), T0, notifier);
    await createMonitors(first, ['nightly']);
    await stepAt(createOverdueFailer({ store: first.store, events: first.events, notifier }), LATER);
    expect(notifier.take().map((p) => p.title)).toEqual(['✗ nightly missed its run']);
    const { popups } = await restart(first, LATER);
    expect(popups).toEqual([]);
  });

  it('reads a bounded number of lost popups at start, however many there are, and shows one summary', async () => {
    const dataDir = tempDir();
    const first = await start(dataDir, T0);
    const lost = READ_AT_MOST + 3;
    first.store.db.transaction(() => {
      for (let i = 0; i < lost; i++) {
        const data = { type: 'monitor', type_id: i + 1, monitor_name: `job ${i}`, description: 'No pulse' } as MonitorNotificationData;
        const alert: Alert = { event: 'monitor.failed', at: '', reason: { kind: 'failed', exit_code: null }, monitor: null, server: null, run: null, expected_at: null };
        first.store.notifications.create({ companyId: 1, type: NOTIFICATION_KINDS.monitorFailed.type, data, alert, now: T0 + i });
      }
    })();
    expect(first.store.popupOutbox.countPending()).toBe(lost);
    const { agent: second, popups } = await restart(first, LATER);
    expect(popups).toHaveLength(1);
    expect(popups[0].title).toBe(`${READ_AT_MOST} monitors failed`);
    expect(popups[0].body).toContain('…and 3 more while Cronbeat was stopped.');
    expect(second.store.popupOutbox.countPending()).toBe(0);
  });
});
