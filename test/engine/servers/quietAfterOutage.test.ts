import { afterEach, describe, expect, it } from 'vitest';
import { createOverdueFailer } from '../../../agent/engine/failOverdue';
import { stepAt } from '../../helpers/loopStep';
import { startTestAgent, tempDir, type TestAgent } from '../../helpers/testAgent';

/*
 * While Cronbeat itself does not run (stopped, the laptop asleep), no watcher can reach it. Its
 * return counts as a report, as a monitor's run gets a grace after an outage: a watcher is quiet
 * only after two missed reports and a minute counted from then, never at once for the silence
 * Cronbeat caused.
 */

const T = Date.parse('2026-11-23T10:00:00Z');
const MIN = 60_000;
const agents: TestAgent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.stop();
});

async function watchedThenDown(downFor: number) {
  const dir = tempDir('cronbeat-quiet-outage-');
  const now = T;
  const before = await startTestAgent({ dataDir: dir, clock: () => now });
  const made = await before.api('/api/servers', { method: 'POST', json: { name: 'web 1', ip_address: '10.0.0.7', identifier: 'web-1' } });
  expect(made.status).toBe(201);
  expect((await before.api('/api/servers/heartbeat', { method: 'POST', json: { server_id: 'web-1', interval_seconds: 60, jobs: 2 } })).status).toBe(200);
  await before.close();
  // Back after `downFor`: the agent's own start graces, then steps; the test does what its loop does, at a time it chooses.
  const clock = { now: T + downFor };
  const after = await startTestAgent({ dataDir: dir, clock: () => clock.now });
  agents.push(after);
  const failer = createOverdueFailer({ store: after.store, events: after.events, notifier: after.notifier });
  failer.graceOverdue({ from: T + 10_000, to: T + downFor });
  await stepAt(failer, T + downFor);
  const quietNotes = async () =>
    ((await (await after.api('/api/notifications?per_page=100&kinds=all')).json()).data as Array<{ data: { type: string; status: string } }>)
      .filter((n) => n.data.type === 'server')
      .map((n) => n.data.status);
  const listed = async () => ((await (await after.api('/api/servers')).json()) as Array<{ quiet: boolean }>)[0]!.quiet;
  return { after, clock, failer, quietNotes, listed };
}

describe('a watcher after Cronbeat was down', () => {
  it('is not quiet at once for the silence Cronbeat caused, and reporting again raises nothing', async () => {
    const { after, clock, failer, quietNotes, listed } = await watchedThenDown(30 * MIN);
    expect(await quietNotes()).toEqual([]);
    expect(await listed()).toBe(false);
    clock.now = T + 30 * MIN + 40_000;
    expect((await after.api('/api/servers/heartbeat', { method: 'POST', json: { server_id: 'web-1', interval_seconds: 60, jobs: 2 } })).status).toBe(200);
    await stepAt(failer, T + 31 * MIN);
    expect(await quietNotes()).toEqual([]);
  });

  it('is quiet two missed reports and a minute after Cronbeat came back, once', async () => {
    const { clock, failer, quietNotes, listed } = await watchedThenDown(30 * MIN);
    await stepAt(failer, T + 33 * MIN);
    clock.now = T + 33 * MIN;
    expect(await quietNotes()).toEqual([]);
    expect(await listed()).toBe(false);
    clock.now = T + 33 * MIN + 1;
    expect(await listed()).toBe(true);
    await stepAt(failer, T + 33 * MIN + 1);
    await stepAt(failer, T + 40 * MIN);
    expect(await quietNotes()).toEqual(['quiet']);
  });
});
