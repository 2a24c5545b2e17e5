import { afterEach, describe, expect, it } from 'vitest';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A flapping monitor whose last word was "now failed" recovers (quietly: it flaps) and is steady
 * during a maintenance window. Its steady-again alert was promised ("no more alerts for it until it
 * has been steady for an hour"), and is the only way its recovery is ever told: it comes when the
 * window ends, as it does for one that is failed. Through a real agent's API, the loop's own step
 * at a moved clock.
 */

const agents: TestAgent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.stop();
});

describe('a flapping monitor steady and fine during a maintenance window', () => {
  it('gets its steady-again alert, "now fine", when the window ends (the flapping alert had said "now failed")', async () => {
    const clock = { now: Date.parse('2026-11-27T12:55:00Z') };
    const agent = await startTestAgent({ clock: () => clock.now });
    agents.push(agent);
    const failer = createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier });
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'sync', timezone: 'UTC', schedule: '*/10 * * * *', duration: 1 } })).json();
    const pulses = new Map([
      ['13:00:20', '/fail'],
      ['13:10:20', ''],
      ['13:20:20', '/fail'],
      ['13:30:20', ''],
      ['13:40:20', '/fail'], // the fifth change: "flapping … now failed"
      ['13:50:20', ''], // fine again, which flapping keeps quiet
    ]);
    const said = async () =>
      ((await (await agent.api('/api/notifications?kinds=all&per_page=100')).json()).data as Array<{ created_at: string; data: { status: string; description: string } }>)
        .map((n) => `${n.data.status} ${n.created_at.slice(11, 16)}`)
        .reverse();
    const walk = async (from: string, to: string) => {
      for (let t = Date.parse(`2026-11-27T${from}Z`); t <= Date.parse(`2026-11-27T${to}Z`); t += 10_000) {
        clock.now = t;
        const hms = new Date(t).toISOString().slice(11, 19);
        // From 14:00 the job runs fine at each run, as it did at 13:50.
        const path = pulses.get(hms) ?? (t >= Date.parse('2026-11-27T14:00:00Z') && hms.endsWith('0:20') ? '' : undefined);
        if (path !== undefined) expect((await fetch(`${agent.url}/api/pulse/${monitor.token}${path}`, { method: 'POST' })).status).toBe(200);
        await stepAt(failer, t);
      }
    };
    await walk('12:55:00', '13:55:00');
    const flapping = (await said()).at(-1);
    expect(flapping).toBe('flapping 13:40');
    const notice = (await (await agent.api('/api/notifications?kinds=all&per_page=1')).json()).data[0];
    expect(notice.data.description).toContain('now failed');

    // Steady an hour after its last change (13:50), at 14:50: inside the window.
    expect((await agent.api('/api/maintenance-windows', { method: 'POST', json: { starts_at: '2026-11-27T14:30:00Z', ends_at: '2026-11-27T15:30:00Z' } })).status).toBe(201);
    await walk('13:55:10', '15:29:50');
    expect((await said()).at(-1)).toBe('flapping 13:40');
    await walk('15:30:00', '15:31:00');
    const after = await said();
    expect(after.slice(after.indexOf('flapping 13:40') + 1)).toEqual(['steady 15:30']);
    const steady = (await (await agent.api('/api/notifications?kinds=all&per_page=1')).json()).data[0];
    expect(steady.alert.reason).toMatchObject({ kind: 'steady', failed: false });
    expect((await (await agent.api(`/api/monitors/${monitor.id}`)).json()).flapping_since).toBeUndefined();
  });
});
