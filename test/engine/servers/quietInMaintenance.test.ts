import { afterEach, describe, expect, it } from 'vitest';
import { createOverdueFailer } from '../../../agent/engine/failOverdue';
import { stepAt } from '../../helpers/loopStep';
import { startTestAgent, type TestAgent } from '../../helpers/testAgent';

/*
 * A planned reboot silences a server's crontab watcher as it silences the server's jobs: a
 * maintenance window that covers the server (one naming nothing, or the tag server:IDENTIFIER its
 * jobs' monitors carry) holds the watcher's quiet alert until it ends, and the watcher then has
 * its usual two reports and a minute, as if it had reported at the window's end.
 */

const T = Date.parse('2026-11-23T10:00:00Z');
const MIN = 60_000;
const agents: TestAgent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.stop();
});

async function watchedWith(window: Record<string, unknown>) {
  const clock = { now: T };
  const agent = await startTestAgent({ clock: () => clock.now });
  agents.push(agent);
  expect((await agent.api('/api/servers', { method: 'POST', json: { name: 'web 1', ip_address: '10.0.0.7', identifier: 'web-1' } })).status).toBe(201);
  expect((await agent.api('/api/servers/heartbeat', { method: 'POST', json: { server_id: 'web-1', interval_seconds: 60, jobs: 2 } })).status).toBe(200);
  const made = await agent.api('/api/maintenance-windows', {
    method: 'POST',
    json: { name: 'reboot', starts_at: '2026-11-23T10:01:00Z', ends_at: '2026-11-23T11:00:00Z', ...window },
  });
  expect(made.status).toBe(201);
  const failer = createOverdueFailer({ store: agent.store, events: agent.events, notifier: agent.notifier });
  /** The loop's step at `at`, the agent's clock there too. */
  const step = (at: number) => {
    clock.now = at;
    return stepAt(failer, at);
  };
  const quietNotes = async () =>
    ((await (await agent.api('/api/notifications?per_page=100&kinds=all')).json()).data as Array<{ data: { type: string; status: string } }>)
      .filter((n) => n.data.type === 'server')
      .map((n) => n.data.status);
  return { step, quietNotes, agent, clock, window: (await made.json()) as { id: number } };
}

describe('a server watcher during a maintenance window', () => {
  it('covered by its server tag: not quiet during the window, quiet two reports and a minute after its end, once', async () => {
    const { step, quietNotes } = await watchedWith({ tags: ['server:web-1'] });
    for (let at = T + 2 * MIN; at <= T + 63 * MIN; at += MIN) await step(at);
    expect(await quietNotes()).toEqual([]);
    await step(T + 63 * MIN + 1);
    await step(T + 70 * MIN);
    expect(await quietNotes()).toEqual(['quiet']);
  });

  it('covered by a window that names nothing (it covers everything)', async () => {
    const { step, quietNotes } = await watchedWith({});
    await step(T + 30 * MIN);
    expect(await quietNotes()).toEqual([]);
  });

  it('not covered by a window for some monitors, nor one for another server: quiet as usual', async () => {
    for (const window of [{ tags: ['server:db-1'] }, { tags: ['backups'] }]) {
      const { step, quietNotes } = await watchedWith(window);
      await step(T + 3 * MIN + 1);
      expect(await quietNotes()).toEqual(['quiet']);
    }
  });

  it('ended early (removed, or its end moved nearer): the watcher is quiet two reports and a minute after the new end, not the old', async () => {
    for (const [end, quietAt] of [[null, T + 33 * MIN], ['2026-11-23T10:31:00Z', T + 34 * MIN]] as const) {
      const { step, quietNotes, agent, clock, window } = await watchedWith({ tags: ['server:web-1'] });
      for (let at = T + 2 * MIN; at <= T + 20 * MIN; at += MIN) await step(at);
      expect(await quietNotes()).toEqual([]);
      // The work is over at 10:30: the window goes (or now ends a minute on); the watcher never reported again.
      clock.now = T + 30 * MIN;
      const changed = end === null
        ? await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'DELETE' })
        : await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'PATCH', json: { ends_at: end } });
      expect(changed.status, String(end)).toBeLessThan(300);
      await step(quietAt);
      expect(await quietNotes()).toEqual([]);
      await step(quietAt + 1);
      expect(await quietNotes(), String(end)).toEqual(['quiet']);
    }
  });

});
