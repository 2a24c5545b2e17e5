import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A PATCH whose values are those the resource has already changes nothing, `updated_at`
 * included, as an Eloquent model saved with no dirty attribute is not touched: a client that
 * sends back what it read (a form saved without an edit) must not make every resource look
 * edited a moment ago. A PATCH that does change a value moves `updated_at`, as before.
 */

const START = Date.parse('2026-03-08T06:00:00Z');
let now = START;
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
});
afterAll(() => agent.stop());

const later = () => {
  now += 60_000;
};
const patch = async (path: string, json: unknown) => {
  const response = await agent.api(path, { method: 'PATCH', json });
  expect(response.status, JSON.stringify(json)).toBe(200);
  return response.json();
};
const get = async (path: string) => (await agent.api(path)).json();

describe('a PATCH that changes nothing', () => {
  it('leaves a monitor as it was, updated_at included, and notes nothing in its history', async () => {
    const created = await (
      await agent.api('/api/monitors', { method: 'POST', json: { name: 'Nightly', timezone: 'UTC', schedule: '0 3 * * *', duration: 5, project_id: 3 } })
    ).json();
    const path = `/api/monitors/${created.id}`;
    for (const body of [
      { name: 'Nightly' },
      { name: 'Nightly', timezone: 'UTC', schedule: '0 3 * * *', duration: 5, project_id: 3 },
      // Stored as it already is: an old zone name, a macro, extra white space.
      { timezone: 'Etc/UTC' },
      { schedule: ' 0 3 * * * ' },
      { tags: [] },
      { channel_ids: null },
    ]) {
      later();
      expect(await patch(path, body), JSON.stringify(body)).toEqual(created);
    }
    expect(await get(path)).toEqual(created);
    expect(await get(`${path}/changes`)).toEqual([]);
  });

  it('moves a monitor updated_at when a value changes, channel_ids included', async () => {
    const created = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'Hourly', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
    const path = `/api/monitors/${created.id}`;
    later();
    const renamed = await patch(path, { name: 'Hourly job' });
    expect(renamed.updated_at).toBe(new Date(now).toISOString().replace('Z', '000Z'));
    later();
    const routed = await patch(path, { channel_ids: [] });
    expect(routed.channel_ids).toEqual([]);
    expect(routed.updated_at).toBe(new Date(now).toISOString().replace('Z', '000Z'));
    later();
    // The same list again changes nothing.
    expect(await patch(path, { channel_ids: [] })).toEqual(routed);
  });

  it('leaves a server as it was, updated_at included', async () => {
    const created = await (await agent.api('/api/servers', { method: 'POST', json: { name: 'Backup box', ip_address: '10.0.0.1', identifier: 'backup-01' } })).json();
    const path = `/api/servers/${created.id}`;
    for (const body of [{ name: 'Backup box' }, { name: ' Backup box ', ip_address: '10.0.0.1', identifier: 'backup-01' }, { channel_ids: null }]) {
      later();
      expect(await patch(path, body), JSON.stringify(body)).toEqual(created);
    }
    expect(await get(path)).toEqual(created);
    later();
    const changed = await patch(path, { ip_address: '10.0.0.2' });
    expect(changed.updated_at).toBe(new Date(now).toISOString().replace('Z', '000Z'));
    later();
    const routed = await patch(path, { channel_ids: [] });
    expect(routed.updated_at).toBe(new Date(now).toISOString().replace('Z', '000Z'));
  });

  it('leaves a channel as it was, updated_at included', async () => {
    const created = await (
      await agent.api('/api/channels', {
        method: 'POST',
        json: { name: 'Phone', kind: 'ntfy', settings: { topic: 'backups', access_token: 'tk_secret' }, quiet_hours: { start: '22:00', end: '07:00', timezone: 'UTC' } },
      })
    ).json();
    const path = `/api/channels/${created.id}`;
    for (const body of [
      { name: 'Phone' },
      { settings: { topic: 'backups' } },
      // The masked secret as it was read, and quiet hours written as they are stored.
      { name: 'Phone', settings: { topic: 'backups', access_token: '********' }, quiet_hours: { start: '22:00', end: '7:00', timezone: 'Etc/UTC' }, remind_every_hours: null },
    ]) {
      later();
      expect(await patch(path, body), JSON.stringify(body)).toEqual(created);
    }
    later();
    expect((await patch(path, { name: 'Phone 2' })).updated_at).toBe(new Date(now).toISOString().replace('Z', '000Z'));
  });

  it('leaves a maintenance window as it was, updated_at included', async () => {
    const body = { name: 'db upgrade', schedule: '0 3 * * 0', timezone: 'UTC', duration: 60, tags: ['db', 'prod'] };
    const created = await (await agent.api('/api/maintenance-windows', { method: 'POST', json: body })).json();
    const path = `/api/maintenance-windows/${created.id}`;
    for (const same of [{ name: 'db upgrade' }, { ...body, tags: ['prod', 'db', 'db'] }, { monitor_ids: [] }]) {
      later();
      const answer = await patch(path, same);
      // Its active and next_starts_at are of the moment asked: only the stored fields are compared.
      expect({ ...answer, active: null, active_until: null, next_starts_at: null }, JSON.stringify(same)).toEqual({ ...created, active: null, active_until: null, next_starts_at: null });
    }
    later();
    expect((await patch(path, { duration: 90 })).updated_at).toBe(new Date(now).toISOString().replace('Z', '000Z'));
  });
});
