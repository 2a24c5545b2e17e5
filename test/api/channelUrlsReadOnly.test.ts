import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../helpers/receiver';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { until } from '../helpers/until';

// A receiver's URL is often its credential (Home Assistant's webhook id, Zapier's catch hook, a
// ?token=): whoever has it can send as Cronbeat. Like a pulse token, only a key that may write sees it.
let agent: TestAgent;
let readOnly: string;
beforeAll(async () => {
  agent = await startTestAgent();
  readOnly = agent.store.apiTokens.create({ companyId: 1, name: 'wall', scope: 'read-only', now: Date.now() }).token;
});
afterAll(() => agent.stop());

const create = async (json: unknown) => (await agent.api('/api/channels', { method: 'POST', json })).json();

describe('where a channel sends, read with a read-only key', () => {
  it('shows each URL it sends to as its origin alone, and the whole URL to a full key', async () => {
    const hook = await create({ name: 'Home Assistant', kind: 'webhook', settings: { url: 'https://ops:pw@ha.example.com/api/webhook/ha-secret-id?token=QSECRET' } });
    const ntfy = await create({ name: 'Phone', kind: 'ntfy', settings: { topic: 'alerts', server_url: 'https://ntfy.example.com/private-path' } });
    const telegram = await create({ name: 'Bot', kind: 'telegram', settings: { bot_token: '123456:ABCDEF', chat_id: '@opsteam', api_url: 'https://tg.example.com/relay-key-42' } });
    const plain = await create({ name: 'Plain', kind: 'ntfy', settings: { topic: 'cron', server_url: 'https://ntfy.sh' } });

    const list = await agent.api('/api/channels', { token: readOnly });
    expect(list.status).toBe(200);
    const text = await list.clone().text();
    // An ntfy topic is that topic's password ("the topic is essentially a password", ntfy's docs):
    // whoever knows it on ntfy.sh reads every alert and can post false ones.
    for (const secret of ['ha-secret-id', 'QSECRET', 'ops:', 'private-path', 'relay-key-42', '"alerts"', '"cron"']) expect(text).not.toContain(secret);
    const byId = new Map((await list.json()).map((channel: { id: number }) => [channel.id, channel]));
    expect(byId.get(hook.id)).toMatchObject({ settings: { url: 'https://ha.example.com/********', secret: '********' } });
    expect(byId.get(ntfy.id)).toMatchObject({ settings: { server_url: 'https://ntfy.example.com/********', topic: '********' } });
    expect(byId.get(telegram.id)).toMatchObject({ settings: { api_url: 'https://tg.example.com/********', chat_id: '@opsteam' } });
    // A URL that is an origin alone says nothing more: shown as it is.
    expect(byId.get(plain.id)).toMatchObject({ settings: { server_url: 'https://ntfy.sh', topic: '********' } });

    const one = await (await agent.api(`/api/channels/${hook.id}`, { token: readOnly })).json();
    expect(one).toEqual(byId.get(hook.id));

    const asFull = await (await agent.api(`/api/channels/${hook.id}`)).json();
    expect(asFull.settings.url).toBe('https://ops:********@ha.example.com/api/webhook/ha-secret-id?token=QSECRET');
  });

  it("hides an ntfy topic, and where a webhook sends, in a channel's report preview too (the request it would send)", async () => {
    const topic = await create({ name: 'Phone', kind: 'ntfy', settings: { topic: 'ops', server_url: 'https://ntfy.example.com' } });
    const longTopic = await create({ name: 'Phone 2', kind: 'ntfy', settings: { topic: 'preview-topic-9c1d' } });
    const hook = await create({ name: 'HA', kind: 'webhook', settings: { url: 'https://ha.example.com/api/webhook/preview-hook-id' } });
    for (const channel of [topic, longTopic, hook]) {
      const seen = await agent.api(`/api/channels/${channel.id}/report-preview`, { token: readOnly });
      expect(seen.status).toBe(200);
      const text = await seen.text();
      for (const secret of ['"ops"', 'preview-topic-9c1d', 'preview-hook-id']) expect(text, channel.name).not.toContain(secret);
    }
    expect((await (await agent.api(`/api/channels/${topic.id}/report-preview`, { token: readOnly })).json()).message.topic).toBe('********');
    // A full key, which reads the topic anyway, is shown the request as it would be sent.
    expect((await (await agent.api(`/api/channels/${topic.id}/report-preview`)).json()).message.topic).toBe('ops');
  });

  it("hides an ntfy topic in a receiver's answer too (ntfy echoes the topic it posted to)", async () => {
    const ntfyServer = await new Receiver([(_request, res) => void res.writeHead(403).end('{"error":"forbidden","topic":"nightly-topic-7f3a"}')]).start();
    try {
      const channel = await create({ name: 'Phone', kind: 'ntfy', settings: { topic: 'nightly-topic-7f3a', server_url: ntfyServer.url } });
      const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'ntfy job', timezone: 'UTC', schedule: '0 3 * * *', duration: 5, channel_ids: [channel.id] } })).json();
      expect((await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`, { method: 'POST' })).status).toBe(200);
      const notification = agent.store.notifications.page(1, 10, 0, { kinds: 'all', unread: false })[0].id;
      await until(() => agent.store.deliveries.forNotification(notification)[0]?.status === 'failed', 'the refused delivery');
      expect(await (await agent.api(`/api/notifications/${notification}/deliveries`, { token: readOnly })).text()).not.toContain('nightly-topic-7f3a');
      expect(await (await agent.api(`/api/notifications/${notification}/deliveries`)).text()).toContain('nightly-topic-7f3a');
    } finally {
      await ntfyServer.stop();
    }
  });

  it("hides an ntfy topic in the channel's report preview too (the message as ntfy would be sent it names its topic)", async () => {
    const channel = await create({ name: 'Phone', kind: 'ntfy', settings: { topic: 'report-topic-9c1e' } });
    const asReader = await agent.api(`/api/channels/${channel.id}/report-preview`, { token: readOnly });
    expect(asReader.status).toBe(200);
    expect(await asReader.clone().text()).not.toContain('report-topic-9c1e');
    expect((await asReader.json()).message.topic).toBe('********');
    expect((await (await agent.api(`/api/channels/${channel.id}/report-preview`)).json()).message.topic).toBe('report-topic-9c1e');
  });

  it("hides that URL's path in a receiver's answer too (one that echoes the path it was asked)", async () => {
    const echo = await new Receiver([(request, res) => void res.writeHead(404).end(`Cannot POST ${request.url}`)]).start();
    try {
      const channel = await create({ name: 'Echo', kind: 'webhook', settings: { url: `${echo.url}/api/webhook/echo-secret-id` } });
      const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'job', timezone: 'UTC', schedule: '0 3 * * *', duration: 5, channel_ids: [channel.id] } })).json();
      expect((await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`, { method: 'POST' })).status).toBe(200);
      const notification = agent.store.notifications.page(1, 10, 0, { kinds: 'all', unread: false })[0].id;
      await until(() => agent.store.deliveries.forNotification(notification)[0]?.status === 'failed', 'the refused delivery');
      const seen = await (await agent.api(`/api/notifications/${notification}/deliveries`, { token: readOnly })).text();
      expect(seen).not.toContain('echo-secret-id');
      expect(seen).toContain('[redacted]');
      expect(await (await agent.api(`/api/notifications/${notification}/deliveries`)).text()).toContain('echo-secret-id');
    } finally {
      await echo.stop();
    }
  });
});
