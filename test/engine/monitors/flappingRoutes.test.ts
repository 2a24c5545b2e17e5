import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver';
import { startTestAgent, type TestAgent } from '../../helpers/testAgent';
import { until } from '../../helpers/until';

/*
 * Where a flapping monitor's alerts go when its channels change while it is failed. Its failure
 * went to one channel; the monitor is then routed to another, and the change that ends the failure
 * is the fifth within the hour, so a flapping alert ("now fine") takes the recovery's place. Whoever
 * was told of the failure hears that it is over, as a recovery would have gone there. A real agent
 * over HTTP, real receivers.
 */

let now = Date.parse('2026-11-27T12:55:00Z');
let agent: TestAgent;
const pager = new Receiver();
const chat = new Receiver();

beforeAll(async () => {
  await Promise.all([pager.start(), chat.start()]);
  agent = await startTestAgent({ clock: () => now });
});
afterAll(async () => {
  await agent.stop();
  await Promise.all([pager.stop(), chat.stop()]);
});

const events = (receiver: Receiver) => receiver.requests.map((r) => `${JSON.parse(r.body).event}${JSON.parse(r.body).reason?.failed === undefined ? '' : JSON.parse(r.body).reason.failed ? ' (now failed)' : ' (now fine)'}`);

async function channel(name: string, url: string): Promise<number> {
  return ((await (await agent.api('/api/channels', { method: 'POST', json: { name, kind: 'webhook', settings: { url } } })).json()) as { id: number }).id;
}

describe('a flapping monitor whose channels change while it is failed', () => {
  it('tells the flapping alert that ends the failure where the failure went', async () => {
    const pagerId = await channel('pager', `${pager.url}/in`);
    const chatId = await channel('chat', `${chat.url}/in`);
    const monitor = (await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'sync', timezone: 'UTC', schedule: '0 * * * *', duration: 120, channel_ids: [pagerId] } })).json()) as { id: number; token: string };

    // Each alert heard before the next pulse, so none is sent minutes of the moved clock late.
    const pulse = async (iso: string, kind: 'fail' | 'success') => {
      const heard = pager.requests.length + chat.requests.length;
      now = Date.parse(iso);
      expect((await fetch(`${agent.url}/api/pulse/${monitor.token}${kind === 'fail' ? '/fail' : ''}`)).status).toBe(200);
      await until(() => pager.requests.length + chat.requests.length > heard, `the alert of ${iso}`);
    };
    await pulse('2026-11-27T13:00:00Z', 'fail');
    await pulse('2026-11-27T13:30:00Z', 'success');
    await pulse('2026-11-27T14:02:00Z', 'fail');
    await pulse('2026-11-27T14:04:00Z', 'success');
    await pulse('2026-11-27T14:06:00Z', 'fail');

    // While it is failed, its alerts are routed to the chat from now on.
    expect((await agent.api(`/api/monitors/${monitor.id}`, { method: 'PATCH', json: { channel_ids: [chatId] } })).status).toBe(200);
    // Its fifth change within the hour, a success: flapping, now fine.
    await pulse('2026-11-27T14:08:00Z', 'success');

    expect(events(pager)).toEqual(['monitor.failed', 'monitor.recovered', 'monitor.failed', 'monitor.recovered', 'monitor.failed', 'monitor.flapping (now fine)']);
    expect(events(chat)).toEqual([]);

  });
});
