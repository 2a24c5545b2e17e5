import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

// The maintenance-windows API under a fixed clock (Friday 2026-11-27 13:00 UTC).
let now = Date.parse('2026-11-27T13:00:00Z');
let agent: TestAgent;
let db: { id: number };
let web: { id: number };
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
  const create = async (name: string, tags: string[]) =>
    (await agent.api('/api/monitors', { method: 'POST', json: { name, timezone: 'UTC', schedule: '*/10 * * * *', duration: 5, tags } })).json();
  db = await create('db dump', ['db']);
  web = await create('web logs', ['web']);
});
afterAll(() => agent.stop());

const post = (json: unknown) => agent.api('/api/maintenance-windows', { method: 'POST', json });
const windowsCount = () => agent.store.maintenanceWindows.list(1).length;

describe('maintenance windows over the API', () => {
  it('creates, reads, lists, edits and deletes a one-off window, saying whether it is under way', async () => {
    const created = await post({ name: 'upgrade', starts_at: '2026-11-27T14:00:00Z', ends_at: '2026-11-27T15:00:00+00:00', monitor_ids: [db.id] });
    expect(created.status).toBe(201);
    const window = await created.json();
    expect(window).toMatchObject({
      name: 'upgrade',
      kind: 'one_off',
      starts_at: '2026-11-27T14:00:00.000000Z',
      ends_at: '2026-11-27T15:00:00.000000Z',
      schedule: null,
      monitor_ids: [db.id],
      tags: [],
      active: false,
      active_until: null,
      next_starts_at: '2026-11-27T14:00:00.000000Z',
    });
    expect(await (await agent.api(`/api/maintenance-windows/${window.id}`)).json()).toEqual(window);

    now = Date.parse('2026-11-27T14:30:00Z');
    const list = await (await agent.api(`/api/maintenance-windows?monitor_id=${db.id}&active=true`)).json();
    expect(list).toMatchObject({ current_page: 1, total: 1, data: [{ id: window.id, active: true, active_until: '2026-11-27T15:00:00.000000Z' }] });
    expect((await (await agent.api(`/api/maintenance-windows?monitor_id=${web.id}&active=true`)).json()).total).toBe(0);

    const edited = await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'PATCH', json: { ends_at: '2026-11-27T16:00:00Z', tags: ['web'] } });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ active_until: '2026-11-27T16:00:00.000000Z', tags: ['web'], monitor_ids: [db.id] });
    expect((await (await agent.api(`/api/maintenance-windows?monitor_id=${web.id}&active=true`)).json()).total).toBe(1);

    expect((await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await agent.api(`/api/maintenance-windows/${window.id}`)).status).toBe(404);
    expect((await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'DELETE' })).status).toBe(404);
    now = Date.parse('2026-11-27T13:00:00Z');
  });

  it('creates a recurring window, its zone corrected and its macro as five fields, and can turn it one-off', async () => {
    const created = await post({ schedule: '@daily', timezone: 'europe/paris', duration: 90 });
    expect(created.status).toBe(201);
    const window = await created.json();
    // Every monitor: it names neither monitors nor tags. Next start: midnight in Paris is 23:00 UTC.
    expect(window).toMatchObject({ kind: 'recurring', schedule: '0 0 * * *', timezone: 'Europe/Paris', duration: 90, monitor_ids: [], tags: [] });
    expect(window.next_starts_at).toBe('2026-11-27T23:00:00.000000Z');
    const changed = await agent.api(`/api/maintenance-windows/${window.id}`, {
      method: 'PATCH',
      json: { schedule: null, timezone: null, duration: null, starts_at: '2026-12-01T00:00:00Z', ends_at: '2026-12-01T02:00:00Z' },
    });
    expect(await changed.json()).toMatchObject({ kind: 'one_off', schedule: null, duration: null, starts_at: '2026-12-01T00:00:00.000000Z' });
    await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'DELETE' });
  });

  it('refuses bad input with a 422 naming the field, and stores nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ starts_at: '2026-11-27T15:00:00Z', ends_at: '2026-11-27T14:00:00Z' }, 'ends_at'],
      [{ starts_at: '2026-11-27T15:00:00Z', ends_at: '2026-11-27T15:00:00Z' }, 'ends_at'],
      [{ starts_at: '2026-11-27T15:00:00Z' }, 'ends_at'],
      [{ ends_at: '2026-11-27T15:00:00Z' }, 'starts_at'],
      [{ starts_at: '2026-11-27T15:00:00Z', ends_at: '2027-01-27T15:00:00Z' }, 'ends_at'],
      [{ starts_at: '2026-02-30T15:00:00Z', ends_at: '2026-11-27T15:00:00Z' }, 'starts_at'],
      [{ starts_at: '2026-11-27T15:00:00', ends_at: '2026-11-27T16:00:00Z' }, 'starts_at'],
      [{ starts_at: '2026-11-27T15:00:00Z', ends_at: '2026-11-27T16:00:00Z', monitor_ids: [999_999] }, 'monitor_ids'],
      [{ starts_at: '2026-11-27T15:00:00Z', ends_at: '2026-11-27T16:00:00Z', monitor_ids: ['1'] }, 'monitor_ids.0'],
      [{ starts_at: '2026-11-27T15:00:00Z', ends_at: '2026-11-27T16:00:00Z', tags: ['has space'] }, 'tags.0'],
      [{ starts_at: '2026-11-27T15:00:00Z', ends_at: '2026-11-27T16:00:00Z', schedule: '0 2 * * *' }, 'schedule'],
      [{ schedule: '0 25 * * *', timezone: 'UTC', duration: 60 }, 'schedule'],
      [{ schedule: '0 2 * * *', timezone: 'Mars/Olympus', duration: 60 }, 'timezone'],
      [{ schedule: '0 2 * * *', timezone: 'x'.repeat(65), duration: 60 }, 'timezone'],
      [{ schedule: 42, timezone: 'UTC', duration: 60 }, 'schedule'],
      [{ starts_at: 1764252000000, ends_at: '2026-11-27T16:00:00Z' }, 'starts_at'],
      [{ schedule: '0 2 * * *', timezone: 'UTC', duration: 0 }, 'duration'],
      [{ schedule: '0 2 * * *', timezone: 'UTC', duration: 10_081 }, 'duration'],
      [{ schedule: '0 2 * * *', timezone: 'UTC', duration: 1.5 }, 'duration'],
      [{ schedule: '0 2 * * *', duration: 60 }, 'timezone'],
      [{ schedule: '0 2 * * *', timezone: 'UTC' }, 'duration'],
      [{ timezone: 'UTC', duration: 60 }, 'schedule'],
      [{}, 'starts_at'],
      [{ starts_at: '2026-11-27T15:00:00Z', ends_at: '2026-11-27T16:00:00Z', ends: 'x' }, 'ends'],
    ];
    for (const [body, field] of cases) {
      const answer = await post(body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      const { message, errors } = await answer.json();
      expect(Object.keys(errors), JSON.stringify(body)).toEqual([field]);
      expect(message).toMatch(/field/);
    }
    expect(windowsCount()).toBe(0);
    expect((await agent.api('/api/maintenance-windows', { method: 'POST', body: 'not json', headers: { 'Content-Type': 'application/json' } })).status).toBe(400);
    expect((await agent.api('/api/maintenance-windows?active=yes')).status).toBe(422);
    expect((await agent.api('/api/maintenance-windows?monitor_id=999999')).status).toBe(422);
    expect((await agent.api('/api/maintenance-windows/abc')).status).toBe(404);
  });

  it('refuses a patch that would leave the window broken, changing nothing', async () => {
    const window = await (await post({ starts_at: '2026-11-27T14:00:00Z', ends_at: '2026-11-27T15:00:00Z' })).json();
    for (const [json, field] of [
      [{ ends_at: '2026-11-27T13:00:00Z' }, 'ends_at'],
      [{ duration: 30 }, 'duration'],
      [{}, 'body'],
      [{ monitor_ids: [123_456] }, 'monitor_ids'],
    ] as const) {
      const answer = await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'PATCH', json });
      expect(answer.status, JSON.stringify(json)).toBe(422);
      expect(Object.keys((await answer.json()).errors)).toEqual([field]);
    }
    expect(await (await agent.api(`/api/maintenance-windows/${window.id}`)).json()).toEqual(window);
    await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'DELETE' });
  });

  it('is not another company\'s', async () => {
    const window = await (await post({ starts_at: '2026-11-27T14:00:00Z', ends_at: '2026-11-27T15:00:00Z' })).json();
    const other = agent.tokenFor(2);
    expect((await agent.api(`/api/maintenance-windows/${window.id}`, { token: other })).status).toBe(404);
    expect((await (await agent.api('/api/maintenance-windows', { token: other })).json()).total).toBe(0);
    expect((await agent.api('/api/maintenance-windows', { method: 'POST', token: other, json: { starts_at: '2026-11-27T14:00:00Z', ends_at: '2026-11-27T15:00:00Z', monitor_ids: [db.id] } })).status).toBe(422);
  });

  it('may be read with a read-only key, written only with a full one; a ping key gets nothing', async () => {
    const key = (scope: 'read-only' | 'ping') => agent.store.apiTokens.create({ companyId: 1, name: scope, scope, now }).token;
    const readOnly = key('read-only');
    expect((await agent.api('/api/maintenance-windows', { token: readOnly })).status).toBe(200);
    const body = { starts_at: '2026-11-27T14:00:00Z', ends_at: '2026-11-27T15:00:00Z' };
    expect((await agent.api('/api/maintenance-windows', { method: 'POST', token: readOnly, json: body })).status).toBe(403);
    expect((await agent.api('/api/maintenance-windows', { token: key('ping') })).status).toBe(403);
  });

  it('still takes edits after a monitor it names was deleted', async () => {
    const gone = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'gone', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })).json();
    const window = await (await post({ starts_at: '2026-11-27T14:00:00Z', ends_at: '2026-11-27T15:00:00Z', monitor_ids: [gone.id, db.id] })).json();
    expect((await agent.api(`/api/monitors/${gone.id}`, { method: 'DELETE' })).status).toBe(204);
    const edited = await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'PATCH', json: { name: 'renamed' } });
    expect(edited.status).toBe(200);
    expect((await edited.json()).name).toBe('renamed');
    // Sent back as read (a client that edits by GET and PATCH): the deleted id it names is kept, a new unknown one is not.
    const read = await (await agent.api(`/api/maintenance-windows/${window.id}`)).json();
    expect(read.monitor_ids).toEqual([gone.id, db.id].sort((a, b) => a - b));
    const sentBack = await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'PATCH', json: { name: 'renamed again', monitor_ids: read.monitor_ids } });
    expect(sentBack.status).toBe(200);
    expect((await sentBack.json()).monitor_ids).toEqual(read.monitor_ids);
    const unknown = await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'PATCH', json: { monitor_ids: [...read.monitor_ids, 999_999] } });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).errors.monitor_ids[0]).toContain('999999');
    await agent.api(`/api/maintenance-windows/${window.id}`, { method: 'DELETE' });
  });
});
