import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { receiverPool } from '../helpers/receiver';
import { startTestAgent, UUID_V7, type TestAgent } from '../helpers/testAgent';

// What a channel's change does to the deliveries waiting for it. The agent's
// clock stands at 23:30 UTC, inside quiet hours 23:00–07:00 UTC.

const NOW = Date.parse('2026-11-21T23:30:00Z');
let agent: TestAgent;
const receivers = receiverPool();
const receiver = receivers.start;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => NOW, channels: { timeoutMs: 2000 } });
});
afterEach(async () => {
  await receivers.stopAll();
});
afterAll(() => agent.stop());


interface Delivery {
  uuid: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  held_until: string | null;
}

let serial = 0;
/** A server alert routed to `channelId` alone: its notification's id. */
async function alertTo(channelId: number): Promise<string> {
  serial++;
  const server = await (
    await agent.api('/api/servers', { method: 'POST', json: { name: `box ${serial}`, ip_address: '10.0.0.9', identifier: `box-${serial}`, channel_ids: [channelId] } })
  ).json();
  const alert = await (await agent.api('/api/servers/alert', { method: 'POST', json: { username: 'root', server_id: server.identifier, command: '0 3 * * * backup' } })).json();
  return alert.notification.id;
}

async function deliveries(notificationId: string): Promise<Delivery[]> {
  return (await agent.api(`/api/notifications/${notificationId}/deliveries`)).json();
}

/** Polls the deliveries until `done` holds (the worker runs on its own); the last list either way. */
async function until(notificationId: string, done: (list: Delivery[]) => boolean): Promise<Delivery[]> {
  let list = await deliveries(notificationId);
  for (let i = 0; i < 200 && !done(list); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    list = await deliveries(notificationId);
  }
  return list;
}

describe('a channel\'s change and the deliveries waiting for it', () => {
  it('removing quiet hours releases what they held, at once', async () => {
    const hook = await receiver();
    const channel = await (
      await agent.api('/api/channels', { method: 'POST', json: { name: 'night hook', kind: 'webhook', settings: { url: hook.url }, quiet_hours: { start: '23:00', end: '07:00', timezone: 'UTC' } } })
    ).json();
    const id = await alertTo(channel.id);
    const held = await until(id, (list) => list[0]?.next_attempt_at === '2026-11-22T07:00:00.000000Z');
    // Said as held by quiet hours, not only as "waiting": the dashboard shows "waiting until 07:00".
    expect(held).toMatchObject([{ status: 'pending', attempts: 0, next_attempt_at: '2026-11-22T07:00:00.000000Z', held_until: '2026-11-22T07:00:00.000000Z' }]);
    expect(held[0].uuid).toMatch(UUID_V7);

    expect((await agent.api(`/api/channels/${channel.id}`, { method: 'PATCH', json: { quiet_hours: null } })).status).toBe(200);
    await hook.received(1);
    expect(await until(id, (list) => list[0]?.status === 'sent')).toMatchObject([{ status: 'sent', attempts: 1, held_until: null }]);
    expect(hook.requests[0].headers['x-cronbeat-delivery']).toBe(held[0].uuid);
  });

  it('quiet hours moved: what they held is looked at again and held only if still inside', async () => {
    const hook = await receiver();
    const channel = await (
      await agent.api('/api/channels', { method: 'POST', json: { name: 'moved hook', kind: 'webhook', settings: { url: hook.url }, quiet_hours: { start: '23:00', end: '07:00', timezone: 'UTC' } } })
    ).json();
    const id = await alertTo(channel.id);
    await until(id, (list) => list[0]?.next_attempt_at === '2026-11-22T07:00:00.000000Z');
    await agent.api(`/api/channels/${channel.id}`, { method: 'PATCH', json: { quiet_hours: { start: '22:00', end: '23:45', timezone: 'UTC' } } });
    expect(await until(id, (list) => list[0]?.next_attempt_at === '2026-11-21T23:45:00.000000Z')).toMatchObject([
      { status: 'pending', attempts: 0, next_attempt_at: '2026-11-21T23:45:00.000000Z' },
    ]);
    expect(hook.requests).toHaveLength(0);
  });

  it('deleting a channel fails its waiting deliveries at once, saying why', async () => {
    const hook = await receiver({ status: 503, body: 'down' });
    const channel = await (await agent.api('/api/channels', { method: 'POST', json: { name: 'down hook', kind: 'webhook', settings: { url: hook.url } } })).json();
    const id = await alertTo(channel.id);
    await hook.received(1);
    expect(await until(id, (list) => list[0]?.attempts === 1 && list[0]?.status === 'pending')).toMatchObject([{ status: 'pending' }]);

    expect((await agent.api(`/api/channels/${channel.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await deliveries(id)).toMatchObject([
      { status: 'failed', attempts: 1, next_attempt_at: null, last_error: 'The channel was deleted before this could be sent.', channel: { deleted: true } },
    ]);
  });

  it('a send under way when its channel is deleted finishes, and a failed one is not tried again (never left pending)', async () => {
    let answerNow: () => void = () => undefined;
    const hook = await receiver((_request, res) => {
      answerNow = () => res.writeHead(503, { 'Content-Type': 'text/plain' }).end('down');
    });
    const channel = await (await agent.api('/api/channels', { method: 'POST', json: { name: 'slow hook', kind: 'webhook', settings: { url: hook.url } } })).json();
    const id = await alertTo(channel.id);
    await hook.received(1);
    expect(await until(id, (list) => list[0]?.status === 'sending')).toMatchObject([{ status: 'sending', attempts: 1 }]);

    expect((await agent.api(`/api/channels/${channel.id}`, { method: 'DELETE' })).status).toBe(204);
    answerNow();
    expect(await until(id, (list) => list[0]?.status !== 'sending')).toMatchObject([
      {
        status: 'failed',
        attempts: 1,
        next_attempt_at: null,
        last_error: 'The receiver answered HTTP 503: down. The channel was deleted meanwhile: not tried again.',
        channel: { deleted: true },
      },
    ]);
  });
});
