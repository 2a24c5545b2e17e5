import { afterEach, describe, expect, it } from 'vitest';
import { createOverdueFailer } from '../../agent/engine/failOverdue';
import { stepAt } from '../helpers/loopStep';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A run that is still going when the next one is due, and then ends: that next run was kept from
 * starting by it (or its own start would have come), so once the long run ends the monitor waits
 * for the first run after the end. Driven through a real agent's API, the loop's own step at a
 * moved clock.
 */

const agents: TestAgent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.stop();
});

async function agentAt(iso: string) {
  const clock = { now: Date.parse(iso) };
  const agent = await startTestAgent({ clock: () => clock.now });
  agents.push(agent);
  const failer = createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier });
  const step = (at: string) => {
    clock.now = Date.parse(at);
    return stepAt(failer, clock.now);
  };
  /** The loop every 30 s from `from` to `to`, as the agent's own runs it. */
  const walk = async (from: string, to: string) => {
    for (let t = Date.parse(from); t <= Date.parse(to); t += 30_000) await step(new Date(t).toISOString());
  };
  const pulse = async (token: string, at: string, path: string) => {
    clock.now = Date.parse(at);
    expect((await fetch(`${agent.url}/api/pulse/${token}${path}`, { method: 'POST' })).status).toBe(200);
  };
  const monitor = async (maxRuntime: number | null) => {
    const made = await agent.api('/api/monitors', { method: 'POST', json: { name: 'sync', timezone: 'UTC', schedule: '*/10 * * * *', duration: 1 } });
    const body = await made.json();
    if (maxRuntime !== null) expect((await agent.api(`/api/monitors/${body.id}/max-runtime`, { method: 'PUT', json: { max_runtime: maxRuntime } })).status).toBe(200);
    return body as { id: number; token: string };
  };
  const alerts = async () =>
    ((await (await agent.api('/api/notifications?per_page=100&kinds=all')).json()).data as Array<{ data: { status: string; description: string } }>)
      .map((n) => `${n.data.status}: ${n.data.description}`)
      .reverse();
  const show = async (id: number) => (await agent.api(`/api/monitors/${id}`)).json();
  const api = (path: string, json: unknown) => agent.api(path, { method: 'POST', json });
  return { walk, pulse, monitor, alerts, show, api };
}

describe('a run that ends after the next run was due', () => {
  it('within its max run time: no alert at all, and the next run awaited is the first after its end', async () => {
    // The docs' own example: allowed 15 minutes on */10, started 13:22, ended 13:35.
    const t = await agentAt('2026-11-21T13:20:00Z');
    const m = await t.monitor(15);
    await t.pulse(m.token, '2026-11-21T13:22:00Z', '/start');
    await t.walk('2026-11-21T13:22:00Z', '2026-11-21T13:35:00Z');
    await t.pulse(m.token, '2026-11-21T13:35:00Z', '/0');
    expect((await t.show(m.id)).next_due_at).toBe('2026-11-21T13:41:00.000000Z');
    await t.walk('2026-11-21T13:35:00Z', '2026-11-21T13:40:30Z');
    await t.pulse(m.token, '2026-11-21T13:40:20Z', '/0');
    await t.walk('2026-11-21T13:40:30Z', '2026-11-21T13:45:00Z');
    expect(await t.alerts()).toEqual([]);
  });

  it('with rids as `cronbeat run` sends them: the same', async () => {
    const t = await agentAt('2026-11-21T13:20:00Z');
    const m = await t.monitor(15);
    await t.pulse(m.token, '2026-11-21T13:22:00Z', '/start?rid=r1');
    await t.walk('2026-11-21T13:22:00Z', '2026-11-21T13:35:00Z');
    await t.pulse(m.token, '2026-11-21T13:35:00Z', '/0?rid=r1');
    await t.walk('2026-11-21T13:35:00Z', '2026-11-21T13:40:30Z');
    expect(await t.alerts()).toEqual([]);
    expect((await t.show(m.id)).next_due_at).toBe('2026-11-21T13:41:00.000000Z');
  });

  it('stuck past its max run time: one stuck alert, its recovery at the end, and no "missed" for the run it kept from starting', async () => {
    const t = await agentAt('2026-11-21T13:20:00Z');
    const m = await t.monitor(10);
    await t.pulse(m.token, '2026-11-21T13:22:00Z', '/start');
    await t.walk('2026-11-21T13:22:00Z', '2026-11-21T13:35:00Z');
    await t.pulse(m.token, '2026-11-21T13:35:00Z', '/0');
    await t.walk('2026-11-21T13:35:00Z', '2026-11-21T13:40:00Z');
    expect(await t.alerts()).toEqual([
      'failed: Stuck: started 2026-11-21 13:22 UTC, still running after 10 min (its max run time)',
      'recovered: A successful run was reported at 2026-11-21 13:35 UTC; monitoring resumed.',
    ]);
  });

  it('without a max run time: the never-finished alert already named the run due 13:30, which is not told again as missed', async () => {
    const t = await agentAt('2026-11-21T13:20:00Z');
    const m = await t.monitor(null);
    await t.pulse(m.token, '2026-11-21T13:22:00Z', '/start');
    await t.walk('2026-11-21T13:22:00Z', '2026-11-21T13:35:00Z');
    await t.pulse(m.token, '2026-11-21T13:35:00Z', '/0');
    await t.walk('2026-11-21T13:35:00Z', '2026-11-21T13:40:00Z');
    expect(await t.alerts()).toEqual([
      "failed: Stuck: started 2026-11-21 13:22 UTC and never finished: no end within 1 min (its grace) of the next run's due time",
      'recovered: A successful run was reported at 2026-11-21 13:35 UTC; monitoring resumed.',
    ]);
    // And the run after the end is watched as usual: it fails when it does not come.
    await t.walk('2026-11-21T13:40:00Z', '2026-11-21T13:41:30Z');
    expect((await t.alerts()).at(-1)).toBe('failed: Missed: the run due 2026-11-21 13:40 UTC did not come (grace 1 min); last run 2026-11-21 13:35 UTC');
  });

  it('a run that ends just before the next is due still leaves that next run expected', async () => {
    const t = await agentAt('2026-11-21T13:20:00Z');
    const m = await t.monitor(15);
    await t.pulse(m.token, '2026-11-21T13:20:05Z', '/start');
    await t.pulse(m.token, '2026-11-21T13:29:50Z', '/0');
    expect((await t.show(m.id)).next_due_at).toBe('2026-11-21T13:31:00.000000Z');
    await t.walk('2026-11-21T13:30:00Z', '2026-11-21T13:31:30Z');
    expect(await t.alerts()).toEqual(['failed: Missed: the run due 2026-11-21 13:30 UTC did not come (grace 1 min); last run 2026-11-21 13:29 UTC']);
  });
});

describe('a run started inside a maintenance window that ends after it', () => {
  it('with rids: its end after the window tells the run it kept from starting once, never again as "Cronbeat resuming"', async () => {
    const t = await agentAt('2026-11-27T13:50:00Z');
    const m = await t.monitor(null);
    await t.pulse(m.token, '2026-11-27T13:50:10Z', '/0');
    // monitor() makes */10 with a grace of 1 min.
    const window = await t.api('/api/maintenance-windows', { starts_at: '2026-11-27T14:00:00Z', ends_at: '2026-11-27T14:30:00Z' });
    expect(window.status).toBe(201);
    await t.walk('2026-11-27T13:50:30Z', '2026-11-27T14:25:00Z');
    // Started in the window (held: it changes nothing), still going when the window ends.
    await t.pulse(m.token, '2026-11-27T14:25:00Z', '/start?rid=r1');
    await t.walk('2026-11-27T14:25:00Z', '2026-11-27T14:35:00Z');
    // The window forgets a run it held, so the 14:30 run is awaited and told missed: that is the documented rule.
    expect(await t.alerts()).toEqual(['failed: Missed: the run due 2026-11-27 14:30 UTC did not come (grace 1 min); last run 2026-11-27 14:25 UTC']);
    await t.pulse(m.token, '2026-11-27T14:35:00Z', '/0?rid=r1');
    expect((await t.show(m.id)).next_due_at).toBe('2026-11-27T14:41:00.000000Z');
    await t.walk('2026-11-27T14:35:00Z', '2026-11-27T14:40:00Z');
    expect(await t.alerts()).toEqual([
      'failed: Missed: the run due 2026-11-27 14:30 UTC did not come (grace 1 min); last run 2026-11-27 14:25 UTC',
      'recovered: A successful run was reported at 2026-11-27 14:35 UTC; monitoring resumed.',
    ]);
  });

  it('runs that overlap, each with its rid: a long one ending late does not hide the miss of a later run still awaited', async () => {
    const t = await agentAt('2026-11-27T13:15:00Z');
    const made = await t.api('/api/monitors', { name: 'overlap', timezone: 'UTC', schedule: '*/10 * * * *', duration: 8 });
    const m = (await made.json()) as { id: number; token: string };
    await t.pulse(m.token, '2026-11-27T13:20:00Z', '/start?rid=a');
    await t.pulse(m.token, '2026-11-27T13:30:00Z', '/start?rid=b');
    await t.pulse(m.token, '2026-11-27T13:31:00Z', '/0?rid=b');
    await t.walk('2026-11-27T13:31:00Z', '2026-11-27T13:44:30Z');
    // The 13:40 run has not come; run a ends at 13:45, before that run's deadline (13:48).
    await t.pulse(m.token, '2026-11-27T13:45:00Z', '/0?rid=a');
    expect((await t.show(m.id)).next_due_at).toBe('2026-11-27T13:48:00.000000Z');
    await t.walk('2026-11-27T13:45:00Z', '2026-11-27T13:49:00Z');
    expect(await t.alerts()).toEqual(['failed: Missed: the run due 2026-11-27 13:40 UTC did not come (grace 8 min); last run 2026-11-27 13:45 UTC']);
  });
});
