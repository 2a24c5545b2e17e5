import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A maintenance window that opens often is a window the rules take (every 2 minutes for 1: it
 * closes before it opens again), and a report counts the time it covered. Found by an outside
 * fuzzing pass over the API: a monthly report worked out such a window's 22,320 occurrences in
 * one go, 2.3 s of CPU during which the agent answered nothing else, not a pulse nor
 * /api/health; and a read-only key may ask for a report's preview as often as it likes. The
 * engine's monthly report held the agent as long. The occurrences are now worked out in slices,
 * as the rest of a report's reading is: other requests are answered between them.
 */

let agent: TestAgent;
const NOW = Date.parse('2026-11-27T10:00:00Z');
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => NOW, channels: { adminZone: 'UTC' } });
});
afterAll(() => agent.stop());

/**
 * The channel's report preview, and the longest the event loop went without coming back to a 5 ms
 * timer meanwhile, as a share of the whole preview: worked out in one go, one hold is nearly all of
 * it; in slices, a small part. A share, not a time: a busy machine stretches both alike.
 */
async function previewHolding(channelId: number): Promise<{ response: Response; longestHold: number }> {
  const start = performance.now();
  let last = performance.now();
  let longestHold = 0;
  const tick = () => {
    const now = performance.now();
    longestHold = Math.max(longestHold, now - last);
    last = now;
  };
  const timer = setInterval(tick, 5);
  const response = await agent.api(`/api/channels/${channelId}/report-preview`);
  tick();
  clearInterval(timer);
  return { response, longestHold: longestHold / (performance.now() - start) };
}

describe('a report over a maintenance window that opens every two minutes', () => {
  it('is worked out without holding the agent, and counts the window', async () => {
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'sync', timezone: 'UTC', schedule: '*/2 * * * *', duration: 1 } })).json();
    agent.store.db.prepare('UPDATE monitors SET created_at = ? WHERE id = ?').run(Date.parse('2026-09-01T00:00:00Z'), monitor.id);
    const window = await agent.api('/api/maintenance-windows', { method: 'POST', json: { schedule: '*/2 * * * *', timezone: 'UTC', duration: 1, monitor_ids: [monitor.id] } });
    expect(window.status).toBe(201);
    const channel = await (await agent.api('/api/channels', { method: 'POST', json: { name: 'ops', kind: 'slack', settings: { webhook_url: 'https://hooks.slack.com/services/T/B/X', report: 'monthly' } } })).json();

    const { response, longestHold } = await previewHolding(channel.id);
    expect(response.status).toBe(200);
    const preview = await response.json();
    expect(preview).toMatchObject({ frequency: 'monthly', from: '2026-10-01T08:00:00.000000Z', to: '2026-11-01T08:00:00.000000Z' });
    // In maintenance half of the month, not all of it: it is said to have never run.
    expect(preview.text).toContain('sync');
    // Before: one stretch of 2,300 ms or more, nearly the whole preview. Now: slices of a few ms.
    expect(longestHold).toBeLessThan(0.5);
  }, 30_000);

  it('reads the windows covering hundreds of monitors once for them all, not once a monitor', async () => {
    const made = [];
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 25 }, (_, i) => agent.api('/api/monitors', { method: 'POST', json: { name: `job ${batch}-${i}`, timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })),
      );
      for (const answer of answers) made.push((await answer.json()).id as number);
    }
    agent.store.db.prepare(`UPDATE monitors SET created_at = ? WHERE id IN (${made.join(',')})`).run(Date.parse('2026-09-01T00:00:00Z'));
    // Two frequent windows for every monitor, and one of its own for one of them.
    for (const window of [
      { schedule: '*:0/2', timezone: 'UTC', duration: 1 },
      { schedule: '*:0/3', timezone: 'UTC', duration: 1 },
      { schedule: '0 3 * * *', timezone: 'UTC', duration: 30, monitor_ids: [made[0]] },
    ]) {
      expect((await agent.api('/api/maintenance-windows', { method: 'POST', json: window })).status).toBe(201);
    }
    const channel = await (await agent.api('/api/channels', { method: 'POST', json: { name: 'all', kind: 'slack', settings: { webhook_url: 'https://hooks.slack.com/services/T/B/Y', report: 'monthly' } } })).json();

    const { response, longestHold } = await previewHolding(channel.id);
    expect(response.status).toBe(200);
    expect((await response.json()).text).toContain('job 9-24');
    // Before: each monitor's 36,000 occurrences copied and sorted in one go, a second or more for 250 monitors.
    expect(longestHold).toBeLessThan(0.5);
  }, 30_000);
  it('counts a flapping monitor\'s failed stretches against the windows without reading them all for each', async () => {
    const flapping = (await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'flappy', timezone: 'UTC', schedule: '*/5 * * * *', duration: 1 } })).json()) as { id: number };
    agent.store.db.prepare('UPDATE monitors SET created_at = ? WHERE id = ?').run(Date.parse('2026-09-01T00:00:00Z'), flapping.id);
    // 4,000 failures and recoveries in October, quiet ones (flapping keeps their alerts back; a report counts them).
    const from = Date.parse('2026-10-01T08:00:00Z');
    for (let i = 0; i < 8000; i++) agent.store.quietChanges.record(1, flapping.id, from + i * 330_000, i % 2 === 0 ? 'failed' : 'recovered', null);
    const window = { schedule: '*:0/2', timezone: 'UTC', duration: 1, monitor_ids: [flapping.id] };
    expect((await agent.api('/api/maintenance-windows', { method: 'POST', json: window })).status).toBe(201);
    const channel = await (await agent.api('/api/channels', { method: 'POST', json: { name: 'flaps', kind: 'slack', settings: { webhook_url: 'https://hooks.slack.com/services/T/B/Z', report: 'monthly' } } })).json();

    const { response, longestHold } = await previewHolding(channel.id);
    expect(response.status).toBe(200);
    const preview = await response.json();
    expect(preview.text).toContain('flappy');
    // Before: each failed stretch copied and sorted the window's 22,320 occurrences again, seconds for this monitor.
    expect(longestHold).toBeLessThan(0.5);
  }, 30_000);
});
