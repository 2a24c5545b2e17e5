import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, TIMESTAMP, type TestAgent } from '../helpers/testAgent';

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

const valid = { name: 'Backup box', ip_address: '192.168.1.20', identifier: 'backup-01' };

async function createServer(body: Record<string, unknown>, token?: string) {
  return agent.api('/api/servers', { method: 'POST', json: body, token });
}

describe('servers', () => {
  it('creates a server with every field of the spec, typed as the spec says', async () => {
    const response = await createServer({ ...valid, identifier: 'typed-1', extra: 'ignored' });
    expect(response.status).toBe(201);
    const server = await response.json();
    // The spec's fields in the spec's order, then ours: the channels it alerts, the watcher's last report (read-only).
    expect(Object.keys(server)).toEqual([
      'id', 'company_id', 'name', 'identifier', 'ip_address', 'deleted_at', 'created_at', 'updated_at',
      'channel_ids', 'last_report_at', 'report_interval_seconds', 'watched_jobs', 'quiet',
    ]);
    expect(server).toMatchObject({ company_id: 1, name: 'Backup box', identifier: 'typed-1', ip_address: '192.168.1.20', deleted_at: null });
    expect(Number.isInteger(server.id)).toBe(true);
    expect(server.created_at).toMatch(TIMESTAMP);
    expect(server.updated_at).toMatch(TIMESTAMP);
  });

  it('lists and shows servers, and accepts IPv6', async () => {
    const created = await (await createServer({ ...valid, identifier: 'v6', ip_address: '2001:db8::1' })).json();
    const list = await (await agent.api('/api/servers')).json();
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((s: { id: number }) => s.id)).toContain(created.id);
    const shown = await agent.api(`/api/servers/${created.id}`);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toEqual(created);
  });

  it('soft-deletes: 204, then gone from list and details, and the identifier is free again', async () => {
    const created = await (await createServer({ ...valid, identifier: 'doomed' })).json();
    const deleted = await agent.api(`/api/servers/${created.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect((await agent.api(`/api/servers/${created.id}`)).status).toBe(404);
    expect((await agent.api(`/api/servers/${created.id}`, { method: 'DELETE' })).status).toBe(404);
    const list = await (await agent.api('/api/servers')).json();
    expect(list.find((s: { id: number }) => s.id === created.id)).toBeUndefined();
    const row = agent.store.db.prepare('SELECT deleted_at FROM servers WHERE id = ?').get(created.id) as { deleted_at: number };
    expect(row.deleted_at).toBeGreaterThan(0);
    expect((await createServer({ ...valid, identifier: 'doomed' })).status).toBe(201);
  });

  it.each([
    ['name', { name: undefined }],
    ['name', { name: '' }],
    ['name', { name: 'x'.repeat(256) }],
    ['name', { name: 42 }],
    ['ip_address', { ip_address: undefined }],
    ['ip_address', { ip_address: '300.1.1.1' }],
    ['ip_address', { ip_address: 'example.com' }],
    ['identifier', { identifier: undefined }],
    ['identifier', { identifier: 'has space' }],
    ['identifier', { identifier: 'x'.repeat(65) }],
    ['identifier', { identifier: 'ünïcode' }],
  ])('answers 422 naming %s for %j and writes nothing', async (field, change) => {
    const before = agent.store.db.prepare('SELECT count(*) FROM servers').pluck().get();
    const response = await createServer({ ...valid, identifier: 'never-made', ...change });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(Object.keys(body.errors)).toEqual([field]);
    expect(body.message).toBe(body.errors[field][0]);
    expect(agent.store.db.prepare('SELECT count(*) FROM servers').pluck().get()).toBe(before);
  });

  it('refuses a duplicate identifier among live servers with 422', async () => {
    await createServer({ ...valid, identifier: 'twin' });
    const response = await createServer({ ...valid, identifier: 'twin' });
    expect(response.status).toBe(422);
    expect((await response.json()).errors).toEqual({ identifier: ['The identifier has already been taken.'] });
  });

  it('answers 404 for ids that are not positive integers', async () => {
    for (const id of ['abc', '0', '-1', '1e9', '1.5', '99999999999999999999', '%00']) {
      const response = await agent.api(`/api/servers/${id}`);
      expect(response.status, id).toBe(404);
      expect(await response.json()).toHaveProperty('message');
    }
  });
});

describe('server alerts', () => {
  it('records the alert and creates a ServerAlertNotification', async () => {
    const server = await (await createServer({ ...valid, identifier: 'alerting' })).json();
    const response = await agent.api('/api/servers/alert', {
      method: 'POST',
      json: { username: 'deploy', server_id: 'alerting', command: '/usr/local/bin/backup.sh --full' },
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.message).toBe('Alert received');
    expect(body.alert).toMatchObject({
      server_id: server.id, username: 'deploy', command: '/usr/local/bin/backup.sh --full', change: 'altered', previous_command: null,
    });

    const alerts = await (await agent.api(`/api/servers/${server.id}/alerts`)).json();
    expect(alerts).toHaveLength(1);
    expect(alerts[0].created_at).toMatch(TIMESTAMP);

    const page = await (await agent.api('/api/notifications?kinds=all')).json();
    const notification = page.data.find((n: { id: string }) => n.id === body.notification.id);
    expect(notification.type).toBe('App\\Notifications\\ServerAlertNotification');
    expect(notification.notifiable_type).toBe('App\\Models\\Company');
    expect(notification.data).toEqual({
      type: 'server',
      type_id: server.id,
      project_id: null,
      status: 'altered',
      title: expect.any(String),
      description: expect.stringContaining('deploy'),
      timezone: 'UTC',
      icon: expect.any(String),
      server_name: 'Backup box',
      server_identifier: 'alerting',
      username: 'deploy',
      command: '/usr/local/bin/backup.sh --full',
    });
  });

  it('says what the watcher saw: added, removed, or altered from the previous command', async () => {
    await createServer({ ...valid, name: 'Web', identifier: 'web-7' });
    const post = (json: Record<string, unknown>) =>
      agent.api('/api/servers/alert', { method: 'POST', json: { username: 'www', server_id: 'web-7', command: 'new.sh', ...json } });
    const added = await (await post({ change: 'added' })).json();
    expect(added.notification.data.title).toBe('Cron job added on Web');
    const removed = await (await post({ change: 'removed' })).json();
    expect(removed.notification.data.description).toMatch(/removed from Web/);
    const altered = await (await post({ change: 'altered', previous_command: 'old.sh' })).json();
    expect(altered.alert).toMatchObject({ change: 'altered', previous_command: 'old.sh' });
    expect(altered.notification.data.description).toContain('from "old.sh" to: new.sh');
    expect(altered.notification.data.status).toBe('altered');
    const bad = await post({ change: 'exploded' });
    expect(bad.status).toBe(422);
    expect(Object.keys((await bad.json()).errors)).toEqual(['change']);
  });

  it('answers 404 for an unknown identifier and 422 for missing fields, recording nothing', async () => {
    const count = () => agent.store.db.prepare('SELECT count(*) FROM server_alerts').pluck().get();
    const before = count();
    const unknown = await agent.api('/api/servers/alert', { method: 'POST', json: { username: 'a', server_id: 'nope', command: 'x' } });
    expect(unknown.status).toBe(404);
    const missing = await agent.api('/api/servers/alert', { method: 'POST', json: { server_id: 'alerting' } });
    expect(missing.status).toBe(422);
    expect(Object.keys((await missing.json()).errors)).toEqual(['username', 'command']);
    expect(count()).toBe(before);
  });
});
