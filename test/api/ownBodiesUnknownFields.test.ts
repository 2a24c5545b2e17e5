import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * Cronbeat's own bodies (channels, a pause, a notification marked read) refuse a field they do not
 * take, as every PATCH does: a misspelt field is a mistake, never dropped while the rest is saved.
 * A channel's `report` sent beside its settings instead of inside them turned no report on and
 * answered 200; `{"untill": …}` paused a monitor for good instead of snoozing it. The spec's own
 * create bodies still ignore what they do not take (docs/api.md, "Common rules").
 */
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => Date.parse('2026-11-23T10:00:30Z') });
});
afterAll(() => agent.stop());

const call = async (method: string, path: string, json?: unknown) => {
  const response = await agent.api(path, { method, json });
  return { status: response.status, body: response.status === 204 ? null : await response.json() };
};
const channelCount = async () => (await call('GET', '/api/channels')).body.length;

describe('channels', () => {
  it('refuses a field beside the settings on create, naming it, and makes nothing', async () => {
    const before = await channelCount();
    const answer = await call('POST', '/api/channels', { name: 'Hook', kind: 'webhook', settings: { url: 'http://127.0.0.1:9/' }, report: 'daily' });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors)).toEqual(['report']);
    expect(answer.body.errors.report[0]).toBe('The report field is unknown. This request takes only: name, kind, settings, quiet_hours, remind_every_hours.');
    expect(await channelCount()).toBe(before);
  });

  it('refuses a setting its kind does not take, on create and on an edit, naming it as settings.<field>', async () => {
    const before = await channelCount();
    const refused = await call('POST', '/api/channels', { name: 'Hook', kind: 'webhook', settings: { url: 'http://127.0.0.1:9/', reprot: 'daily' } });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors)).toEqual(['settings.reprot']);
    expect(refused.body.errors['settings.reprot'][0]).toContain('This request takes only: url, secret, mask_secrets, report, report_time, report_timezone.');
    expect(await channelCount()).toBe(before);

    const channel = (await call('POST', '/api/channels', { name: 'Slack', kind: 'slack', settings: { webhook_url: 'https://hooks.slack.com/services/T0/B0/x' } })).body;
    const edit = await call('PATCH', `/api/channels/${channel.id}`, { name: 'Team Slack', settings: { report: 'weekly', report_tz: 'Europe/Berlin' } });
    expect(edit.status).toBe(422);
    expect(Object.keys(edit.body.errors)).toEqual(['settings.report_tz']);
    expect((await call('GET', `/api/channels/${channel.id}`)).body).toMatchObject({ name: 'Slack', settings: { webhook_url: expect.any(String) } });
    expect((await call('GET', `/api/channels/${channel.id}`)).body.settings).not.toHaveProperty('report');
  });

  it('refuses an edit that names no field it takes (it would change nothing), or one beside good ones', async () => {
    const channel = (await call('POST', '/api/channels', { name: 'Hook', kind: 'webhook', settings: { url: 'http://127.0.0.1:9/' } })).body;
    const misplaced = await call('PATCH', `/api/channels/${channel.id}`, { report: 'daily' });
    expect(misplaced.status).toBe(422);
    expect(Object.keys(misplaced.body.errors).sort()).toEqual(['body', 'report']);
    const empty = await call('PATCH', `/api/channels/${channel.id}`, {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors.body[0]).toBe('The body must contain at least one of: name, settings, quiet_hours, remind_every_hours.');
    const beside = await call('PATCH', `/api/channels/${channel.id}`, { name: 'Renamed', remind_every: 4 });
    expect(beside.status).toBe(422);
    expect(Object.keys(beside.body.errors)).toEqual(['remind_every']);
    expect((await call('GET', `/api/channels/${channel.id}`)).body).toMatchObject({ name: 'Hook', remind_every_hours: null });
    // Changing the kind keeps its own answer.
    const kind = await call('PATCH', `/api/channels/${channel.id}`, { kind: 'slack' });
    expect(kind.status).toBe(422);
    expect(kind.body.errors.kind).toEqual(['The kind field cannot be changed; make a new channel.']);
  });

  it('takes back, for every kind, the channel exactly as GET shows it (secrets masked)', async () => {
    const kinds = [
      { kind: 'webhook', settings: { url: 'https://user:pass@hooks.example.com/cronbeat', secret: 'a-signing-secret-of-16+' } },
      { kind: 'slack', settings: { webhook_url: 'https://hooks.slack.com/services/T0/B0/secret' } },
      { kind: 'discord', settings: { webhook_url: 'https://discord.com/api/webhooks/1/secret' } },
      { kind: 'telegram', settings: { bot_token: '123456:ABCDEF', chat_id: '42' } },
      { kind: 'ntfy', settings: { topic: 'cronbeat-alerts', access_token: 'tk_secret' } },
      { kind: 'email', settings: { host: 'smtp.example.com', user: 'me', password: 'pw', from: 'cronbeat@example.com', to: 'ops@example.com' } },
    ];
    for (const { kind, settings } of kinds) {
      const created = await call('POST', '/api/channels', { name: `${kind} channel`, kind, settings: { ...settings, report: 'daily', report_time: '09:00', report_timezone: 'UTC' } });
      expect(created.status, kind).toBe(201);
      const shown = (await call('GET', `/api/channels/${created.body.id}`)).body;
      const { name, settings: shownSettings, quiet_hours, remind_every_hours } = shown;
      const back = await call('PATCH', `/api/channels/${shown.id}`, { name, settings: shownSettings, quiet_hours, remind_every_hours });
      expect(back.status, `${kind}: ${JSON.stringify(back.body)}`).toBe(200);
      expect(back.body.settings, kind).toEqual(shownSettings);
    }
  });
});

describe('a pause', () => {
  it('refuses a misspelt until instead of pausing for good', async () => {
    const monitor = (await call('POST', '/api/monitors', { name: 'Backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 })).body;
    const answer = await call('POST', `/api/monitors/${monitor.id}/pause`, { untill: '2026-11-24T10:00:00Z' });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors)).toEqual(['untill']);
    expect((await call('GET', `/api/monitors/${monitor.id}`)).body).toMatchObject({ status: 'new', paused_at: null });
    // The two bodies it takes still work: a snooze, and nothing at all (paused until resumed).
    expect((await call('POST', `/api/monitors/${monitor.id}/pause`, { until: '2026-11-24T10:00:00Z' })).status).toBe(200);
    expect((await call('POST', `/api/monitors/${monitor.id}/pause`, {})).status).toBe(200);
  });
});

describe('a notification marked read', () => {
  it('refuses a field beside read', async () => {
    await call('POST', '/api/servers', { name: 'db1', ip_address: '10.0.0.9', identifier: 'db1' });
    expect((await call('POST', '/api/servers/alert', { username: 'root', server_id: 'db1', command: '0 3 * * * backup' })).status).toBeLessThan(300);
    const [notification] = (await call('GET', '/api/notifications?kinds=all')).body.data;
    const answer = await call('PATCH', `/api/notifications/${notification.id}`, { read: true, unread: false });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors)).toEqual(['unread']);
    expect((await call('GET', '/api/notifications?kinds=all')).body.data[0].read_at).toBeNull();
  });
});

describe("the spec's create bodies", () => {
  it('still ignore a field they do not take, as the service the spec describes does', async () => {
    const monitor = await call('POST', '/api/monitors', { name: 'Nightly', timezone: 'UTC', schedule: '0 3 * * *', duration: 5, color: 'blue' });
    expect(monitor.status).toBe(201);
    expect(monitor.body).not.toHaveProperty('color');
    const server = await call('POST', '/api/servers', { name: 'web2', ip_address: '10.0.0.2', identifier: 'web2', rack: 4 });
    expect(server.status).toBe(201);
  });
});
