import { afterEach, describe, expect, it } from 'vitest';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A recurring maintenance window whose calendar event names a time the fall-back night repeats
 * ("*-*-* 02:30" in Europe/Paris on 2026-10-25): systemd elapses it once, at the first 02:30
 * (00:30 UTC), and next the following night. So the window lasts its 60 minutes once that night:
 * at the second 02:30 (01:30 UTC) it is not under way, and a run missed then is told, not
 * excused for another hour. Through a real agent's API, the loop's own step at a moved clock.
 */

const agents: TestAgent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.stop();
});

describe('a calendar-event window on the fall-back night', () => {
  it('opens once, at the first of the two 02:30s, and covers no run after its 60 minutes', async () => {
    const clock = { now: Date.parse('2026-10-24T22:00:00Z') };
    const agent = await startTestAgent({ clock: () => clock.now });
    agents.push(agent);
    const failer = createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier });
    const made = await agent.api('/api/maintenance-windows', { method: 'POST', json: { name: 'nightly', schedule: '*-*-* 02:30', timezone: 'Europe/Paris', duration: 60 } });
    expect(made.status).toBe(201);
    const window = await made.json();
    expect(window.next_starts_at).toBe('2026-10-25T00:30:00.000000Z');
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'queue', timezone: 'UTC', schedule: '*/15 * * * *', duration: 5 } })).json();
    const shown = async (iso: string) => {
      clock.now = Date.parse(iso);
      return (await agent.api(`/api/maintenance-windows/${window.id}`)).json();
    };
    expect(await shown('2026-10-25T01:00:00Z')).toMatchObject({ active: true, active_until: '2026-10-25T01:30:00.000000Z' });
    expect(await shown('2026-10-25T01:45:00Z')).toMatchObject({ active: false, active_until: null, next_starts_at: '2026-10-26T01:30:00.000000Z' });

    // The job runs every 15 minutes until 01:15 UTC, then stops: its 01:30 run, after the window, is missed at 01:35.
    for (let t = Date.parse('2026-10-24T22:00:00Z'); t <= Date.parse('2026-10-25T01:40:00Z'); t += 30_000) {
      clock.now = t;
      if (t <= Date.parse('2026-10-25T01:16:00Z') && new Date(t).getUTCMinutes() % 15 === 0 && new Date(t).getUTCSeconds() === 30) {
        expect((await fetch(`${agent.url}/api/pulse/${monitor.token}`, { method: 'POST' })).status).toBe(200);
      }
      await stepAt(failer, t);
    }
    const failed = (await (await agent.api('/api/notifications')).json()).data.map((n: { data: { description: string } }) => n.data.description);
    expect(failed).toEqual(['Missed: the run due 2026-10-25 01:30 UTC did not come (grace 5 min); last run 2026-10-25 01:15 UTC']);
  });
});

describe('a window that ends inside the repeated hour of the fall-back night', () => {
  it('leaves a monitor of a systemd timer every 15 minutes waiting for the timer\'s next run (03:00 CET), not for a second 02:30', async () => {
    const clock = { now: Date.parse('2026-10-24T23:00:00Z') };
    const agent = await startTestAgent({ clock: () => clock.now });
    agents.push(agent);
    const failer = createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier });
    // From 02:00 CEST (00:00 UTC) for 90 minutes: it ends at 02:30 CET (01:30 UTC), in the repeated hour.
    const made = await agent.api('/api/maintenance-windows', { method: 'POST', json: { name: 'upgrade', starts_at: '2026-10-25T00:00:00Z', ends_at: '2026-10-25T01:30:00Z' } });
    expect(made.status).toBe(201);
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'queue', timezone: 'Europe/Paris', schedule: '*:0/15', duration: 5 } })).json();
    // The timer's own runs: every 15 minutes up to 02:45 CEST (00:45 UTC), then 03:00 CET (02:00 UTC) on; the job reports each.
    const timerRuns = new Set<number>();
    for (let run: number | null = Date.parse('2026-10-24T23:00:00Z'); run !== null && run <= Date.parse('2026-10-25T02:30:00Z'); ) {
      timerRuns.add(run);
      run = run === Date.parse('2026-10-25T00:45:00Z') ? Date.parse('2026-10-25T02:00:00Z') : run + 15 * 60_000;
    }
    for (let t = Date.parse('2026-10-24T23:00:00Z'); t <= Date.parse('2026-10-25T02:40:00Z'); t += 30_000) {
      clock.now = t;
      if (timerRuns.has(t - 30_000)) expect((await fetch(`${agent.url}/api/pulse/${monitor.token}`, { method: 'POST' })).status).toBe(200);
      await stepAt(failer, t);
    }
    expect((await (await agent.api('/api/notifications?kinds=all')).json()).data).toEqual([]);
    expect((await (await agent.api(`/api/monitors/${monitor.id}`)).json()).next_due_at).toBe('2026-10-25T02:50:00.000000Z');
  });
});
