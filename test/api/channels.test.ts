import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../helpers/receiver';
import { startTestAgent, TIMESTAMP, type TestAgent } from '../helpers/testAgent';

let agent: TestAgent;
const receivers: Receiver[] = [];
beforeAll(async () => {
  agent = await startTestAgent({ channels: { timeoutMs: 2000 } });
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
});
afterAll(() => agent.stop());

const receiver = async (...answers: ConstructorParameters<typeof Receiver>) => {
  const r = await new Receiver(...answers).start();
  receivers.push(r);
  return r;
};
const create = (body: unknown, token?: string) => agent.api('/api/channels', { method: 'POST', json: body, token });
const patch = (path: string, body: unknown) => agent.api(path, { method: 'PATCH', json: body });

async function expect422(response: Response, field: string, message?: RegExp) {
  expect(response.status).toBe(422);
  const body = await response.json();
  expect(Object.keys(body.errors)).toContain(field);
  if (message) expect(body.errors[field][0]).toMatch(message);
}

describe('/api/channels', () => {
  it('creates, lists, shows, edits and deletes a channel', async () => {
    const response = await create({ name: 'Ops ntfy', kind: 'ntfy', settings: { topic: 'ops' } });
    expect(response.status).toBe(201);
    const channel = await response.json();
    expect(channel).toEqual({
      id: expect.any(Number),
      company_id: 1,
      name: 'Ops ntfy',
      kind: 'ntfy',
      settings: { topic: 'ops', access_token: null },
      quiet_hours: null,
      remind_every_hours: null,
      failing_since: null,
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    expect((await (await agent.api('/api/channels')).json()).map((c: { id: number }) => c.id)).toContain(channel.id);
    expect(await (await agent.api(`/api/channels/${channel.id}`)).json()).toEqual(channel);

    const edited = await patch(`/api/channels/${channel.id}`, {
      name: 'Phone',
      settings: { server_url: 'https://ntfy.example.com/' },
      quiet_hours: { start: '22:00', end: '07:00', timezone: 'europe/paris' },
    });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({
      name: 'Phone',
      settings: { topic: 'ops', server_url: 'https://ntfy.example.com' },
      quiet_hours: { start: '22:00', end: '07:00', timezone: 'Europe/Paris' },
    });
    expect((await agent.api(`/api/channels/${channel.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await agent.api(`/api/channels/${channel.id}`)).status).toBe(404);
    expect((await agent.api(`/api/channels/${channel.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses bad settings with a 422 naming the field, and changes nothing', async () => {
    const before = (await (await agent.api('/api/channels')).json()).length;
    await expect422(await create({ name: 'x', kind: 'pager', settings: {} }), 'kind', /must be one of: webhook, ntfy/);
    await expect422(await create({ name: 'x', kind: 'webhook', settings: { url: 'ftp://x' } }), 'settings.url', /http or https URL/);
    await expect422(await create({ name: 'x', kind: 'webhook', settings: {} }), 'settings.url', /required/);
    await expect422(await create({ name: 'x', kind: 'webhook', settings: { url: 'https://a.example', secret: 'short' } }), 'settings.secret');
    await expect422(await create({ name: 'x', kind: 'ntfy', settings: { topic: 'a b' } }), 'settings.topic');
    for (const token of ['tk_abc\r\nX-Evil: 1', 'tk_abc def', 'tk_ünicode']) {
      await expect422(await create({ name: 'x', kind: 'ntfy', settings: { topic: 'ops', access_token: token } }), 'settings.access_token', /no spaces/);
    }
    await expect422(await create({ name: 'x', kind: 'slack', settings: { webhook_url: 'nope' } }), 'settings.webhook_url');
    await expect422(await create({ name: 'x', kind: 'discord', settings: {} }), 'settings.webhook_url');
    await expect422(await create({ name: 'x', kind: 'telegram', settings: { bot_token: 'abc', chat_id: '1' } }), 'settings.bot_token');
    await expect422(await create({ name: 'x', kind: 'telegram', settings: { bot_token: '1:a', chat_id: 'me' } }), 'settings.chat_id');
    for (const chatId of [5.5, -1e21]) {
      await expect422(await create({ name: 'x', kind: 'telegram', settings: { bot_token: '1:a', chat_id: chatId } }), 'settings.chat_id', /^The chat id field must be a numeric chat id or a @channel name\.$/);
    }
    await expect422(await create({ name: 'x', kind: 'telegram', settings: { bot_token: '1:a', chat_id: '5', api_url: 'https://bots.example.com/x?y=1' } }), 'settings.api_url', /without \? or #/);
    await expect422(await create({ name: 'x', kind: 'ntfy', settings: { topic: 'ops', server_url: 'https://ntfy.example.com/#x' } }), 'settings.server_url', /without \? or #/);
    const email = { host: 'smtp.example.com', from: 'a@example.com', to: 'b@example.com' };
    // A control character or a lone surrogate (which has no UTF-8) in a secret or an address: never what the receiver expects.
    const odd: Array<[string, Record<string, unknown>, string]> = [
      ['webhook', { url: 'https://a.example', secret: `${'s'.repeat(16)}\ud800` }, 'secret'],
      ['webhook', { url: 'https://a.example/in\u0000x' }, 'url'],
      ['slack', { webhook_url: 'https://hooks.slack.com/services/T/B/\ud800' }, 'webhook_url'],
      ['discord', { webhook_url: 'https://discord.com/api/webhooks/1/a\u001bb' }, 'webhook_url'],
      ['email', { ...email, user: 'bot\r\nRCPT TO:<x@example.com>' }, 'user'],
      ['email', { ...email, user: 'bot', password: 'pw\udc00' }, 'password'],
      ['ntfy', { topic: 'ops', server_url: 'https://ntfy.example.com/\u0007' }, 'server_url'],
      ['telegram', { bot_token: '1:a', chat_id: '5', api_url: 'https://bots.example.com/\u202e' }, 'api_url'],
    ];
    for (const [kind, settings, field] of odd) {
      await expect422(await create({ name: 'x', kind, settings }), `settings.${field}`, /must not contain control characters/);
    }
    await expect422(await create({ name: 'x', kind: 'email', settings: { ...email, to: 'b@example.com, nope' } }), 'settings.to');
    await expect422(await create({ name: 'x', kind: 'email', settings: { ...email, port: 70000 } }), 'settings.port');
    await expect422(await create({ name: 'x', kind: 'email', settings: { ...email, tls: 'ssl3' } }), 'settings.tls');
    await expect422(await create({ name: 'x', kind: 'email', settings: { ...email, from: 'a, b' } }), 'settings.from');
    await expect422(await create({ name: '', kind: 'email', settings: email }), 'name');
    await expect422(await create({ name: 'x', kind: 'email', settings: email, quiet_hours: { start: '25:00', end: '07:00', timezone: 'UTC' } }), 'quiet_hours.start');
    await expect422(await create({ name: 'x', kind: 'email', settings: email, quiet_hours: { start: '22:00', end: '07:00', timezone: 'Mars/Olympus' } }), 'quiet_hours.timezone');
    await expect422(await create({ name: 'x', kind: 'email', settings: email, quiet_hours: { start: '22:00', end: '07:00' } }), 'quiet_hours.timezone', /^The quiet hours timezone field is required\.$/);
    await expect422(await create({ name: 'x', kind: 'email', settings: 'smtp://x' }), 'settings');
    expect((await (await agent.api('/api/channels')).json()).length).toBe(before);

    const ok = await (await create({ name: 'mail', kind: 'email', settings: email })).json();
    await expect422(await patch(`/api/channels/${ok.id}`, { settings: { port: 'x' } }), 'settings.port');
    await expect422(await patch(`/api/channels/${ok.id}`, { kind: 'slack' }), 'kind');
    expect((await (await agent.api(`/api/channels/${ok.id}`)).json()).settings.port).toBeUndefined();
  });

  it('mask_secrets: absent by default (masking on), false to send job output as it is, null to remove; anything else a 422', async () => {
    const made = await (await create({ name: 'chat', kind: 'slack', settings: { webhook_url: 'https://hooks.slack.com/services/T1/B2/x' } })).json();
    expect(made.settings).not.toHaveProperty('mask_secrets');
    await expect422(await patch(`/api/channels/${made.id}`, { settings: { mask_secrets: 'no' } }), 'settings.mask_secrets', /^The mask secrets field must be true or false\.$/);
    const off = await patch(`/api/channels/${made.id}`, { settings: { mask_secrets: false } });
    expect((await off.json()).settings.mask_secrets).toBe(false);
    const reset = await patch(`/api/channels/${made.id}`, { settings: { mask_secrets: null } });
    expect((await reset.json()).settings).not.toHaveProperty('mask_secrets');
    await expect422(await create({ name: 'x', kind: 'email', settings: { host: 'h', from: 'a@example.com', to: 'b@example.com', mask_secrets: 1 } }), 'settings.mask_secrets');
  });

  it('never shows a secret: masked in every response, kept by a PATCH that leaves it out or sends the mask', async () => {
    const secrets = ['whsec-0123456789abcdef', 'tk_ntfy_secret', 'https://hooks.slack.com/services/T1/B2/slacksecret', 'https://discord.com/api/webhooks/1/discordsecret', 'smtp-password-1', '123:telegramsecret'];
    const made = await Promise.all([
      create({ name: 'w', kind: 'webhook', settings: { url: 'https://example.com/hook', secret: secrets[0] } }),
      create({ name: 'n', kind: 'ntfy', settings: { topic: 't', access_token: secrets[1] } }),
      create({ name: 's', kind: 'slack', settings: { webhook_url: secrets[2] } }),
      create({ name: 'd', kind: 'discord', settings: { webhook_url: secrets[3] } }),
      create({ name: 'e', kind: 'email', settings: { host: 'h', from: 'a@b.co', to: 'c@d.co', user: 'u', password: secrets[4] } }),
      create({ name: 't', kind: 'telegram', settings: { bot_token: secrets[5], chat_id: 42 } }),
    ]);
    const texts = await Promise.all(made.map((r) => r.text()));
    const channels = texts.map((t) => JSON.parse(t));
    const listText = await (await agent.api('/api/channels')).text();
    const edited = await patch(`/api/channels/${channels[4].id}`, { settings: { password: '********', to: 'ops@example.com' } });
    const all = [...texts, listText, await edited.text()].join('\n');
    for (const secret of secrets) expect(all).not.toContain(secret);
    expect(channels[0].settings.secret).toBe('********');
    expect(channels[2].settings.webhook_url).toBe('https://hooks.slack.com/********');
    expect(channels[5].settings).toEqual({ bot_token: '********', chat_id: '42' });
    const stored = agent.store.channels.find(1, channels[4].id)!;
    expect(stored.settings).toMatchObject({ password: secrets[4], to: 'ops@example.com' });
    // The mask with a new host is refused: a password never follows its channel to another server.
    expect((await patch(`/api/channels/${channels[4].id}`, { settings: { password: '********', host: 'smtp2.example.com' } })).status).toBe(422);
    expect(agent.store.channels.find(1, channels[4].id)!.settings.host).toBe('h');
    await patch(`/api/channels/${channels[4].id}`, { settings: { password: null } });
    expect(agent.store.channels.find(1, channels[4].id)!.settings.password).toBeUndefined();
  });

  it('makes a webhook secret when none is given and shows it only in the creation answer', async () => {
    const response = await create({ name: 'w', kind: 'webhook', settings: { url: 'https://example.com/hook' } });
    const channel = await response.json();
    expect(channel.generated_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(channel.settings.secret).toBe('********');
    const shown = await (await agent.api(`/api/channels/${channel.id}`)).text();
    expect(shown).not.toContain(channel.generated_secret);
    expect(agent.store.channels.find(1, channel.id)!.settings.secret).toBe(channel.generated_secret);
  });

  it('sends a test message and answers what the receiver said', async () => {
    const hook = await receiver([{ status: 202, body: 'queued #7' }]);
    const channel = await (await create({ name: 'w', kind: 'webhook', settings: { url: hook.url, secret: 'a-long-enough-secret' } })).json();
    const response = await agent.api(`/api/channels/${channel.id}/test`, { method: 'POST' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ delivered: true, response_status: 202, response_body: 'queued #7', error: null });
    expect(hook.requests).toHaveLength(1);
    const signature = createHmac('sha256', 'a-long-enough-secret').update(hook.requests[0].body).digest('hex');
    expect(hook.requests[0].headers['x-cronbeat-signature']).toBe(`sha256=${signature}`);
    expect(JSON.parse(hook.requests[0].body)).toMatchObject({ event: 'test', title: 'Cronbeat test message' });

    const failing = await receiver([{ status: 404, body: 'no such hook' }]);
    const bad = await (await create({ name: 'b', kind: 'webhook', settings: { url: failing.url } })).json();
    expect(await (await agent.api(`/api/channels/${bad.id}/test`, { method: 'POST' })).json()).toEqual({
      delivered: false,
      response_status: 404,
      response_body: 'no such hook',
      error: 'The receiver answered HTTP 404: no such hook',
    });
  });

  it('says in words that a test message was refused for its size (413), as a real alert does', async () => {
    const small = await receiver([{ status: 413, body: '<html><center><h1>413 Request Entity Too Large</h1></center></html>' }]);
    const channel = await (await create({ name: 'small', kind: 'webhook', settings: { url: small.url } })).json();
    expect(await (await agent.api(`/api/channels/${channel.id}/test`, { method: 'POST' })).json()).toEqual({
      delivered: false,
      response_status: 413,
      response_body: '<html><center><h1>413 Request Entity Too Large</h1></center></html>',
      error:
        'The receiver answered HTTP 413: <html><center><h1>413 Request Entity Too Large</h1></center></html>. Too large for the receiver, and this message cannot be made smaller: not retried. ' +
        "Raise the receiver's limit on a request's size (nginx's client_max_body_size).",
    });
  });

  it('keeps companies apart', async () => {
    const other = agent.tokenFor(2);
    const theirs = await (await create({ name: 'theirs', kind: 'ntfy', settings: { topic: 'x' } }, other)).json();
    expect((await agent.api(`/api/channels/${theirs.id}`)).status).toBe(404);
    expect((await patch(`/api/channels/${theirs.id}`, { name: 'mine' })).status).toBe(404);
    expect((await agent.api(`/api/channels/${theirs.id}/test`, { method: 'POST' })).status).toBe(404);
    expect((await agent.api('/api/channels')).ok).toBe(true);
    expect((await (await agent.api('/api/channels')).json()).map((c: { id: number }) => c.id)).not.toContain(theirs.id);
  });
});

describe('channel_ids of monitors, servers and certificates', () => {
  const monitor = { name: 'job', timezone: 'UTC', schedule: '0 3 * * *', duration: 10 };

  it('are null (all channels) by default, set on create, shown, edited by PATCH', async () => {
    const a = await (await create({ name: 'a', kind: 'ntfy', settings: { topic: 'a' } })).json();
    const b = await (await create({ name: 'b', kind: 'ntfy', settings: { topic: 'b' } })).json();
    const plain = await (await agent.api('/api/monitors', { method: 'POST', json: monitor })).json();
    expect(plain.channel_ids).toBeNull();
    const routed = await agent.api('/api/monitors', { method: 'POST', json: { ...monitor, channel_ids: [b.id, a.id, b.id] } });
    expect(routed.status).toBe(201);
    const created = await routed.json();
    expect(created.channel_ids).toEqual([b.id, a.id]);
    expect((await (await agent.api(`/api/monitors/${created.id}`)).json()).channel_ids).toEqual([b.id, a.id]);
    const listed = (await (await agent.api('/api/monitors')).json()).find((m: { id: number }) => m.id === created.id);
    expect(listed.channel_ids).toEqual([b.id, a.id]);

    expect((await (await patch(`/api/monitors/${created.id}`, { channel_ids: [] })).json()).channel_ids).toEqual([]);
    expect((await (await patch(`/api/monitors/${created.id}`, { channel_ids: null })).json()).channel_ids).toBeNull();

    const server = await (await agent.api('/api/servers', { method: 'POST', json: { name: 's', ip_address: '10.0.0.1', identifier: 'routed-s', channel_ids: [a.id] } })).json();
    expect(server.channel_ids).toEqual([a.id]);
    expect((await (await patch(`/api/servers/${server.id}`, { channel_ids: [b.id] })).json()).channel_ids).toEqual([b.id]);
    expect((await (await agent.api(`/api/servers/${server.id}`)).json()).channel_ids).toEqual([b.id]);

    const certificate = agent.store.certificates.create({ companyId: 1, hostname: 'routed.example', port: 443, warnDays: 14, now: agent.clock() });
    expect((await (await agent.api(`/api/ssl-certificates/${certificate.id}`)).json()).channel_ids).toBeNull();
    expect((await (await patch(`/api/ssl-certificates/${certificate.id}`, { channel_ids: [a.id] })).json()).channel_ids).toEqual([a.id]);
    const certificates = await (await agent.api('/api/ssl-certificates')).json();
    expect(certificates.find((c: { id: number }) => c.id === certificate.id).channel_ids).toEqual([a.id]);
  });

  it('refuse ids that are not channels of the company (422 naming channel_ids), changing nothing', async () => {
    const theirs = await (await create({ name: 'theirs', kind: 'ntfy', settings: { topic: 'x' } }, agent.tokenFor(3))).json();
    const mine = await (await create({ name: 'mine', kind: 'ntfy', settings: { topic: 'm' } })).json();
    const count = (await (await agent.api('/api/monitors')).json()).length;
    await expect422(await agent.api('/api/monitors', { method: 'POST', json: { ...monitor, channel_ids: [mine.id, theirs.id] } }), 'channel_ids', new RegExp(`${theirs.id}`));
    await expect422(await agent.api('/api/monitors', { method: 'POST', json: { ...monitor, channel_ids: 'all' } }), 'channel_ids');
    await expect422(await agent.api('/api/monitors', { method: 'POST', json: { ...monitor, channel_ids: [0] } }), 'channel_ids.0');
    expect((await (await agent.api('/api/monitors')).json()).length).toBe(count);
    const m = await (await agent.api('/api/monitors', { method: 'POST', json: { ...monitor, channel_ids: [mine.id] } })).json();
    await expect422(await patch(`/api/monitors/${m.id}`, { channel_ids: [999999] }), 'channel_ids');
    // The full PATCH of a monitor: an empty body names no field to change.
    await expect422(await patch(`/api/monitors/${m.id}`, {}), 'body', /channel_ids/);
    expect((await (await agent.api(`/api/monitors/${m.id}`)).json()).channel_ids).toEqual([mine.id]);
    await expect422(await agent.api('/api/servers', { method: 'POST', json: { name: 's', ip_address: '10.0.0.1', identifier: 'bad-route', channel_ids: [theirs.id] } }), 'channel_ids');
    expect((await patch('/api/monitors/999999', { channel_ids: null })).status).toBe(404);
  });

  it('leave out a channel deleted since, so a list read back can be saved again', async () => {
    const kept = await (await create({ name: 'kept', kind: 'ntfy', settings: { topic: 'k' } })).json();
    const gone = await (await create({ name: 'gone', kind: 'ntfy', settings: { topic: 'g' } })).json();
    const added = await (await create({ name: 'added', kind: 'ntfy', settings: { topic: 'a' } })).json();
    const m = await (await agent.api('/api/monitors', { method: 'POST', json: { ...monitor, channel_ids: [kept.id, gone.id] } })).json();
    const server = await (await agent.api('/api/servers', { method: 'POST', json: { name: 's', ip_address: '10.0.0.1', identifier: 'gone-route', channel_ids: [gone.id] } })).json();
    expect((await agent.api(`/api/channels/${gone.id}`, { method: 'DELETE' })).status).toBe(204);

    const read = await (await agent.api(`/api/monitors/${m.id}`)).json();
    expect(read.channel_ids).toEqual([kept.id]);
    expect((await (await agent.api('/api/monitors')).json()).find((x: { id: number }) => x.id === m.id).channel_ids).toEqual([kept.id]);
    // What the dashboard's picker sends: the list it read, with one more ticked.
    const saved = await patch(`/api/monitors/${m.id}`, { channel_ids: [...read.channel_ids, added.id] });
    expect(saved.status).toBe(200);
    expect((await saved.json()).channel_ids).toEqual([kept.id, added.id]);
    // A list of deleted channels alone alerts the desktop only, as [] does, and reads so.
    expect((await (await agent.api(`/api/servers/${server.id}`)).json()).channel_ids).toEqual([]);
  });
});

describe('GET /api/notifications/{id}/deliveries', () => {
  it('lists where a notification went, with each delivery\'s state', async () => {
    const hook = await receiver([{ status: 500, body: 'nope' }]);
    const channel = await (await create({ name: 'down hook', kind: 'webhook', settings: { url: hook.url } })).json();
    const server = await (await agent.api('/api/servers', { method: 'POST', json: { name: 'box', ip_address: '10.0.0.9', identifier: 'box-9', channel_ids: [channel.id] } })).json();
    const alert = await (await agent.api('/api/servers/alert', { method: 'POST', json: { username: 'root', server_id: server.identifier, command: '0 3 * * * backup' } })).json();
    await hook.received(1);
    let deliveries: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 100 && !(deliveries[0]?.attempts === 1 && deliveries[0]?.status === 'pending'); i++) {
      deliveries = await (await agent.api(`/api/notifications/${alert.notification.id}/deliveries`)).json();
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(deliveries).toEqual([
      {
        id: expect.any(Number),
        uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        notification_id: alert.notification.id,
        channel: { id: channel.id, name: 'down hook', kind: 'webhook', deleted: false },
        status: 'pending',
        attempts: 1,
        last_attempt_at: expect.stringMatching(TIMESTAMP),
        next_attempt_at: expect.stringMatching(TIMESTAMP),
        sent_at: null,
        give_up_at: expect.stringMatching(TIMESTAMP),
        last_error: 'The receiver answered HTTP 500: nope',
        response_status: 500,
        response_body: 'nope',
        created_at: expect.stringMatching(TIMESTAMP),
        held_until: null,
      },
    ]);
    expect((await agent.api(`/api/notifications/${alert.notification.id}/deliveries`, { token: agent.tokenFor(4) })).status).toBe(404);
    expect((await agent.api('/api/notifications/nope/deliveries')).status).toBe(404);
  });
});
