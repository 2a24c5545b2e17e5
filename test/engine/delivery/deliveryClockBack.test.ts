import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver';
import { startTestAgent, type TestAgent } from '../../helpers/testAgent';
import { until } from '../../helpers/until';

/*
 * The outbox on a clock set back while the agent runs (a machine that booted a day ahead, with its
 * network down: the receiver unreachable and NTP too, until both come up). What was planned on
 * "tomorrow"'s clock (a retry's backoff, a receiver's Retry-After, a digest's pause) waits as long
 * as it was meant to from the correction, not a day longer. A real agent, its loop noticing the
 * set-back as it does, real receivers; each worker pass is awaited.
 */

const AHEAD = Date.parse('2026-11-22T10:00:30Z');
const BACK = Date.parse('2026-11-21T10:00:30Z');
let now = AHEAD;
let agent: TestAgent;
const down = new Receiver([{ status: 503, body: 'down' }, { status: 200 }]);
const limited = new Receiver([{ status: 429, body: 'slow down', headers: { 'Retry-After': '60' } }, { status: 200 }]);
const burst = new Receiver();

beforeAll(async () => {
  await Promise.all([down.start(), limited.start(), burst.start()]);
  agent = await startTestAgent({ clock: () => now });
});
afterAll(async () => {
  await agent.stop();
  await Promise.all([down.stop(), limited.stop(), burst.stop()]);
});

async function channel(name: string, url: string): Promise<number> {
  const made = await agent.api('/api/channels', { method: 'POST', json: { name, kind: 'webhook', settings: { url } } });
  expect(made.status).toBe(201);
  return ((await made.json()) as { id: number }).id;
}

async function failingMonitor(name: string, channelIds: number[]): Promise<number> {
  const made = (await (await agent.api('/api/monitors', { method: 'POST', json: { name, timezone: 'UTC', schedule: '0 * * * *', duration: 5, channel_ids: channelIds } })).json()) as { id: number; token: string };
  expect((await fetch(`${agent.url}/api/pulse/${made.token}/fail`)).status).toBe(200);
  return made.id;
}

const waiting = (channelId: number) =>
  agent.store.db.prepare("SELECT count(*) FROM deliveries WHERE channel_id = ? AND status = 'pending' AND attempts > 0").pluck().get(channelId) as number;

describe('the outbox on a clock set back by a day', () => {
  it('retries a refused alert, a rate-limited one and a burst as soon after the correction as they were planned', async () => {
    const downId = await channel('down hook', `${down.url}/in`);
    const limitedId = await channel('limited hook', `${limited.url}/in`);
    const burstId = await channel('burst hook', `${burst.url}/in`);

    // While ahead: a failure the receiver refuses (backoff 30 s), one it rate-limits for a minute,
    // and a burst of five on the third channel, sent as three alerts and a digest (the next one not
    // before 20 s after it).
    await failingMonitor('backup', [downId]);
    await failingMonitor('sync', [limitedId]);
    for (const name of ['a', 'b', 'c']) await failingMonitor(name, [burstId]);
    await agent.deliveries.runDue();
    await until(() => down.requests.length === 1 && limited.requests.length === 1 && burst.requests.length === 3, 'the first attempts');
    await until(() => waiting(downId) === 1 && waiting(limitedId) === 1, 'the refused ones waiting');
    for (const name of ['d', 'e']) await failingMonitor(name, [burstId]);
    now = AHEAD + 5_000;
    await agent.deliveries.runDue();
    await until(() => burst.requests.length === 4, 'the digest');

    // NTP sets the true time: the loop notices within its heartbeat and brings back what was
    // recorded ahead (the monitors' moments are its sign).
    now = BACK;
    await until(() => (agent.store.db.prepare('SELECT max(updated_at) FROM monitors').pluck().get() as number) <= BACK, 'the monitors brought back');
    // The worker's next pass, on the corrected clock (it looks at least every 30 s).
    await agent.deliveries.runDue();

    // A minute and a bit later everything planned "tomorrow" is due: the refused retry (30 s), the
    // rate-limited one (60 s), and the burst channel's next alerts, one by one as its last sends were a
    // minute ago; not a day later, when "tomorrow"'s digest would allow the next.
    for (const name of ['f', 'g']) await failingMonitor(name, [burstId]);
    now = BACK + 61_000;
    await agent.deliveries.runDue();
    await agent.deliveries.runDue();
    await until(() => down.requests.length === 2 && limited.requests.length === 2 && burst.requests.length === 6, 'the retries and the next alerts', 5_000).catch(() => {});
    expect([down.requests.length, limited.requests.length, burst.requests.length]).toEqual([2, 2, 6]);
    expect(burst.requests.slice(4).map((r) => JSON.parse(r.body).monitor.name).sort()).toEqual(['f', 'g']);
  });
});
