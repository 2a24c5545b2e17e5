import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { receiverPool, type Answer } from '../helpers/receiver';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

// Channel secrets: user:pass@ URLs, secrets on a change of destination, and (webhook
// URLs that are secrets, echoed by receivers). Real agent, real receivers.

let agent: TestAgent;
const logged: string[] = [];
const receivers = receiverPool();
const receiver = receivers.start;
beforeAll(async () => {
  agent = await startTestAgent({ channels: { timeoutMs: 2000 }, log: (line) => logged.push(line) });
});
afterEach(async () => {
  await receivers.stopAll();
});
afterAll(() => agent.stop());

const create = async (body: unknown) => {
  const response = await agent.api('/api/channels', { method: 'POST', json: body });
  expect(response.status).toBe(201);
  return response.json();
};
const patch = (id: number, body: unknown) => agent.api(`/api/channels/${id}`, { method: 'PATCH', json: body });
const show = async (id: number) => (await agent.api(`/api/channels/${id}`)).json();
const sendTest = async (id: number) => (await agent.api(`/api/channels/${id}/test`, { method: 'POST' })).json();

async function expect422(response: Response, fields: string[]) {
  expect(response.status).toBe(422);
  const body = await response.json();
  expect(Object.keys(body.errors).sort()).toEqual([...fields].sort());
  return body;
}

describe('changing where a channel sends asks for its secret again', () => {
  it('telegram: a new API address or chat without the bot token is refused, and the token never reaches the new address', async () => {
    const home = await receiver({ status: 200, body: '{"ok":true}' });
    const elsewhere = await receiver({ status: 200, body: '{"ok":true}' });
    const channel = await create({ name: 'tg', kind: 'telegram', settings: { bot_token: '123:home-token', chat_id: 42, api_url: home.url } });

    const refused = await expect422(await patch(channel.id, { settings: { api_url: elsewhere.url } }), ['settings.bot_token']);
    expect(refused.message).toMatch(/bot token field is required when the api url changes/);
    await expect422(await patch(channel.id, { settings: { chat_id: '@someone_else' } }), ['settings.bot_token']);
    await expect422(await patch(channel.id, { settings: { api_url: elsewhere.url, bot_token: '********' } }), ['settings.bot_token']);
    expect((await show(channel.id)).settings).toMatchObject({ api_url: home.url, chat_id: '42' });
    expect(await sendTest(channel.id)).toMatchObject({ delivered: true });
    expect(home.requests.map((r) => r.url)).toEqual(['/bot123:home-token/sendMessage']);
    expect(elsewhere.requests).toEqual([]);

    expect((await patch(channel.id, { settings: { api_url: elsewhere.url, bot_token: '456:new-token' } })).status).toBe(200);
    await sendTest(channel.id);
    expect(elsewhere.requests.map((r) => r.url)).toEqual(['/bot456:new-token/sendMessage']);
    // Renaming, or sending the same destination back, asks for nothing.
    expect((await patch(channel.id, { name: 'tg 2', settings: { api_url: elsewhere.url, chat_id: '42' } })).status).toBe(200);
  });

  it('ntfy: a new server without the access token is refused; a new topic on the same server is not', async () => {
    const channel = await create({ name: 'phone', kind: 'ntfy', settings: { topic: 'ops', access_token: 'tk_alices-token' } });
    await expect422(await patch(channel.id, { settings: { server_url: 'https://ntfy.evil.example' } }), ['settings.access_token']);
    expect((await show(channel.id)).settings.server_url).toBeUndefined();
    expect((await patch(channel.id, { settings: { topic: 'ops2' } })).status).toBe(200);
    // Given anew, or cleared: then the new server is fine.
    expect((await patch(channel.id, { settings: { server_url: 'https://ntfy.example.com', access_token: null } })).status).toBe(200);
    expect((await show(channel.id)).settings).toMatchObject({ server_url: 'https://ntfy.example.com', access_token: null });
  });

  it('email: a new host, port, encryption or user without the password is refused', async () => {
    const settings = { host: 'smtp.example.com', user: 'alice', password: 'smtp-pass-of-alice', from: 'cb@example.com', to: 'me@example.com' };
    const channel = await create({ name: 'mail', kind: 'email', settings });
    for (const change of [{ host: 'smtp.evil.example' }, { port: 2525 }, { tls: 'none' }, { user: 'mallory' }]) {
      await expect422(await patch(channel.id, { settings: change }), ['settings.password']);
    }
    expect((await patch(channel.id, { settings: { to: 'ops@example.com' } })).status).toBe(200);
    expect((await patch(channel.id, { settings: { host: 'smtp2.example.com', password: 'another-pass' } })).status).toBe(200);
  });

  it('webhook: a new URL without the signing secret is refused; null makes a new one, shown once', async () => {
    const hook = await receiver();
    const channel = await create({ name: 'hook', kind: 'webhook', settings: { url: 'https://old.example/in', secret: 'old-secret-of-16-chars' } });
    await expect422(await patch(channel.id, { settings: { url: hook.url } }), ['settings.secret']);
    const moved = await patch(channel.id, { settings: { url: hook.url, secret: null } });
    expect(moved.status).toBe(200);
    const { generated_secret: secret } = await moved.json();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await sendTest(channel.id);
    const [request] = hook.requests;
    expect(request.headers['x-cronbeat-signature']).toBe(`sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`);
  });
});

describe('a webhook URL with user:pass@', () => {
  it('is sent as Basic auth, shown with the password masked, kept when sent back as shown', async () => {
    const hook = await receiver();
    const channel = await create({ name: 'basic', kind: 'webhook', settings: { url: `http://alice:p%40ss-word@127.0.0.1:${hook.port}/in` } });
    expect(channel.settings.url).toBe(`http://alice:********@127.0.0.1:${hook.port}/in`);
    expect(await sendTest(channel.id)).toMatchObject({ delivered: true });
    const basic = `Basic ${Buffer.from('alice:p@ss-word').toString('base64')}`;
    expect(hook.requests[0].headers.authorization).toBe(basic);

    // The dashboard's form sends the settings back as shown: nothing changes.
    expect((await patch(channel.id, { name: 'basic 2', settings: { url: channel.settings.url } })).status).toBe(200);
    await sendTest(channel.id);
    expect(hook.requests[1].headers.authorization).toBe(basic);
    // A new address with the mask as its password is refused: the password is not carried over.
    await expect422(await patch(channel.id, { settings: { url: 'http://alice:********@evil.example/in', secret: 'new-secret-of-16-chars' } }), ['settings.url']);
  });

  it('never shows its password in an answer that echoes the request (the Basic header, the password re-encoded)', async () => {
    const echo: Answer = (request, res) => {
      const password = 's3cr/t pw!';
      res
        .writeHead(401, { 'Content-Type': 'text/plain' })
        .end(`denied: ${request.headers.authorization} (${encodeURIComponent(password).toLowerCase().replace('%20', '+')})`);
    };
    const hook = await receiver(echo);
    const channel = await create({ name: 'echoed', kind: 'webhook', settings: { url: `http://bob:s3cr%2Ft%20pw!@127.0.0.1:${hook.port}/in` } });
    const answer = await sendTest(channel.id);
    expect(hook.requests[0].headers.authorization).toBe(`Basic ${Buffer.from('bob:s3cr/t pw!').toString('base64')}`);
    expect(answer).toMatchObject({ delivered: false, response_status: 401, response_body: 'denied: Basic [redacted] ([redacted])' });
    expect(answer.error).toBe('The receiver answered HTTP 401: denied: Basic [redacted] ([redacted])');
    expect(JSON.stringify(logged)).not.toContain(Buffer.from('bob:s3cr/t pw!').toString('base64'));
  });

  it('is refused in every other URL (Slack, Discord, ntfy server, Telegram API)', async () => {
    const refused = [
      { kind: 'slack', settings: { webhook_url: 'https://u:p@hooks.slack.com/services/T1/B2/x' }, field: 'settings.webhook_url' },
      { kind: 'discord', settings: { webhook_url: 'https://u:p@discord.com/api/webhooks/1/x' }, field: 'settings.webhook_url' },
      { kind: 'ntfy', settings: { topic: 'ops', server_url: 'https://u:p@ntfy.example.com' }, field: 'settings.server_url' },
      { kind: 'telegram', settings: { bot_token: '1:a', chat_id: 1, api_url: 'https://u:p@tg.example.com' }, field: 'settings.api_url' },
    ];
    for (const { kind, settings, field } of refused) {
      const body = await expect422(await agent.api('/api/channels', { method: 'POST', json: { name: 'x', kind, settings } }), [field]);
      expect(body.errors[field][0]).toMatch(/must not contain a user name or password/);
    }
  });
});

describe('Slack and Discord webhook URLs are secrets', () => {
  it('a masked URL for another address than the stored one is refused, not taken as "keep it"', async () => {
    const home = await receiver();
    const channel = await create({ name: 'slack moved', kind: 'slack', settings: { webhook_url: `${home.url}/services/T0BOB0001/B0BOB0002/bobsTokenOf24characters` } });
    expect(channel.settings.webhook_url).toBe(`${home.url}/********`);
    // Sent back as shown: kept.
    expect((await patch(channel.id, { name: 'slack 2', settings: { webhook_url: channel.settings.webhook_url } })).status).toBe(200);
    // The admin changed the host but not the mask: that is a mistake to name, never a silent 200 that keeps the old hook.
    const body = await expect422(await patch(channel.id, { settings: { webhook_url: 'https://hooks.slack.com/********' } }), ['settings.webhook_url']);
    expect(body.message).toMatch(/webhook url field .*whole new URL/);
    expect((await show(channel.id)).name).toBe('slack 2');
  });

  it('never show in a delivery\'s answer or error, nor in the log, even when the receiver echoes only their path', async () => {
    const slackPath = '/services/T0ALICE01/B0ALICE02/slackTokenOfAlice123456';
    const discordPath = '/api/webhooks/123456789012345678/discordTokenOfAlice_abcdefghijklmnop';
    const echo: Answer = (request, res) => {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`no such hook: ${request.url} (token ${request.url.split('/').pop()})`);
    };
    const hook = await receiver(echo);
    const slack = await create({ name: 'slack', kind: 'slack', settings: { webhook_url: `${hook.url}${slackPath}` } });
    const discord = await create({ name: 'discord', kind: 'discord', settings: { webhook_url: `${hook.url}${discordPath}` } });

    const answers = [await sendTest(slack.id), await sendTest(discord.id)];
    expect(hook.requests.map((r) => r.url)).toEqual([slackPath, discordPath]);
    for (const answer of answers) {
      expect(answer).toMatchObject({ delivered: false, response_status: 404 });
      expect(answer.error).toMatch(/\[redacted\]/);
    }
    // And through the outbox: an alert to both, its deliveries listed.
    const server = await (await agent.api('/api/servers', { method: 'POST', json: { name: 'box', ip_address: '10.0.0.9', identifier: 'secret-box', channel_ids: [slack.id, discord.id] } })).json();
    const alert = await (await agent.api('/api/servers/alert', { method: 'POST', json: { username: 'root', server_id: server.identifier, command: '0 3 * * * backup' } })).json();
    await hook.received(4);
    let deliveries: Array<{ attempts: number }> = [];
    for (let i = 0; i < 200 && !(deliveries.length === 2 && deliveries.every((d) => d.attempts === 1)); i++) {
      deliveries = await (await agent.api(`/api/notifications/${alert.notification.id}/deliveries`)).json();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const channels = await (await agent.api('/api/channels')).json();
    const shown = JSON.stringify([answers, deliveries, channels, logged]);
    for (const secret of ['T0ALICE01/B0ALICE02', 'slackTokenOfAlice123456', '123456789012345678/discord', 'discordTokenOfAlice_abcdefghijklmnop']) {
      expect(shown).not.toContain(secret);
    }
    expect(JSON.stringify(deliveries)).toMatch(/no such hook: \[redacted\]/);
  });
});
