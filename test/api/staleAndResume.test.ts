import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/* A stale success never recovers a failure, and (pause → resume is no recovery), over real HTTP. */

let agent: TestAgent;
let now = Date.parse('2026-11-23T10:00:30Z');
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
});
afterAll(() => agent.stop());

const hourly = { name: 'Nightly backup', timezone: 'UTC', schedule: '0 * * * *', duration: 5 };
type Monitor = Record<string, unknown> & { id: number; token: string };

async function create(): Promise<Monitor> {
  const response = await agent.api('/api/monitors', { method: 'POST', json: hourly });
  expect(response.status).toBe(201);
  return response.json();
}
const show = async (id: number): Promise<Monitor> => (await agent.api(`/api/monitors/${id}`)).json();
const pulse = async (path: string, sentAt?: number) => {
  const headers: Record<string, string> = sentAt === undefined ? {} : { 'X-Cronbeat-Sent-At': new Date(sentAt).toISOString() };
  const response = await fetch(`${agent.url}/api/pulse/${path}`, { headers });
  expect(response.status).toBe(200);
};
const history = async (id: number) => (await (await agent.api(`/api/monitors/${id}/pulses?per_page=50`)).json()).data as Array<Record<string, unknown>>;
const notesOf = async (id: number) =>
  ((await (await agent.api('/api/notifications?per_page=100&kinds=all')).json()).data as Array<{ data: { type_id: number; status: string } }>)
    .filter((n) => n.data.type_id === id)
    .map((n) => n.data.status);
/** The monitor loop's step at `at`, by a failer of its own (the agent's loop runs on its own clock). */
const step = (at: number) => stepAt(createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier }), at);

describe('a stale pulse never changes the state it is older than', () => {
  it('keeps a reported failure after a success sent an hour before it, and records that success', async () => {
    now = Date.parse('2026-11-23T10:00:30Z');
    const monitor = await create();
    now = Date.parse('2026-11-23T11:00:10Z');
    await pulse(`${monitor.token}/fail`);
    now = Date.parse('2026-11-23T11:00:40Z');
    await pulse(monitor.token, Date.parse('2026-11-23T10:00:10Z'));
    expect(await show(monitor.id)).toMatchObject({ status: 'failed', is_alerted: 1, alert_reason: 'Failed: the job reported failure' });
    expect(await notesOf(monitor.id)).toEqual(['failed']);
    expect((await history(monitor.id)).map((p) => p.kind)).toEqual(['fail', 'success']);

    // A success sent after the failure recovers it, as always.
    now = Date.parse('2026-11-23T12:00:20Z');
    await pulse(monitor.token);
    expect(await show(monitor.id)).toMatchObject({ status: 'monitoring', is_alerted: 0 });
    expect(await notesOf(monitor.id)).toEqual(['recovered', 'failed']);
  });

  it('keeps a missed run failed after a success older than the last pulse before it, and recovers on one sent for the missed run', async () => {
    now = Date.parse('2026-11-23T10:00:30Z');
    const monitor = await create();
    now = Date.parse('2026-11-23T11:00:20Z');
    await pulse(monitor.token);
    await step(Date.parse('2026-11-23T12:05:01Z'));
    expect((await show(monitor.id)).status).toBe('failed');
    now = Date.parse('2026-11-23T12:10:00Z');
    await pulse(monitor.token, Date.parse('2026-11-23T10:59:00Z'));
    expect((await show(monitor.id)).status).toBe('failed');
    // The 12:00 run's success, spooled while the agent could not be reached: news, so it recovers.
    await pulse(monitor.token, Date.parse('2026-11-23T12:00:30Z'));
    expect((await show(monitor.id)).status).toBe('monitoring');
  });
});

describe('pause → resume on a failed monitor', () => {
  it('starts a fresh wait ("new"), raises no recovery, and the run history shows the pause and the resume', async () => {
    now = Date.parse('2026-11-23T10:00:30Z');
    const monitor = await create();
    now = Date.parse('2026-11-23T11:00:10Z');
    await pulse(`${monitor.token}/3`);
    expect((await show(monitor.id)).status).toBe('failed');

    now = Date.parse('2026-11-23T11:10:00Z');
    expect((await agent.api(`/api/monitors/${monitor.id}/pause`, { method: 'POST', json: {} })).status).toBe(200);
    now = Date.parse('2026-11-23T11:20:00Z');
    const resumed = await (await agent.api(`/api/monitors/${monitor.id}/resume`, { method: 'POST' })).json();
    expect(resumed).toMatchObject({ status: 'new', is_alerted: 0, next_due_at: '2026-11-23T12:05:00.000000Z' });
    expect((await show(monitor.id)).status).toBe('new');
    expect(await notesOf(monitor.id)).toEqual(['failed']);
    const lines = await history(monitor.id);
    expect(lines.map((p) => p.kind)).toEqual(['resume', 'pause', 'fail']);
    expect(lines[0]).toMatchObject({ received_at: '2026-11-23T11:20:00.000000Z', body: 'Resumed: waiting for the next run' });
    expect(lines[1]).toMatchObject({ received_at: '2026-11-23T11:10:00.000000Z', body: 'Paused until resumed' });

    // A pulse from before the resume, replayed late, is stale: still new, nothing raised.
    await pulse(`${monitor.token}/fail`, Date.parse('2026-11-23T11:05:00Z'));
    expect(await show(monitor.id)).toMatchObject({ status: 'new', is_alerted: 0 });

    // Its next pulse makes it "monitoring" (no recovery: it was never failed since the resume).
    now = Date.parse('2026-11-23T12:00:20Z');
    await pulse(monitor.token);
    expect((await show(monitor.id)).status).toBe('monitoring');
    expect(await notesOf(monitor.id)).toEqual(['failed']);
  });

  it('fails again when the first run after the resume is missed', async () => {
    now = Date.parse('2026-11-23T10:00:30Z');
    const monitor = await create();
    await step(Date.parse('2026-11-23T11:05:01Z'));
    await agent.api(`/api/monitors/${monitor.id}/pause`, { method: 'POST', json: { until: '2026-11-23T11:30:00Z' } });
    now = Date.parse('2026-11-23T11:30:01Z');
    await step(now);
    expect(await show(monitor.id)).toMatchObject({ status: 'new', next_due_at: '2026-11-23T12:05:00.000000Z' });
    expect((await history(monitor.id))[0]).toMatchObject({ kind: 'resume', body: 'Snooze over: waiting for the next run' });
    await step(Date.parse('2026-11-23T12:05:01Z'));
    expect((await show(monitor.id)).status).toBe('failed');
    expect(await notesOf(monitor.id)).toEqual(['failed', 'failed']);
  });
});
