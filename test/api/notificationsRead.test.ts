import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../agent/db/migrations';
import { NOTIFICATION_KINDS } from '../../agent/domain/alerts/notificationKinds';
import { startTestAgent, TIMESTAMP, type TestAgent } from '../helpers/testAgent';

/* The spec's kinds by default, read state, and the unread filter. */

let agent: TestAgent;
let now = Date.parse('2026-11-23T10:00:00Z');
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
});
afterAll(() => agent.stop());

type Notification = { id: string; type: string; read_at: string | null; updated_at: string };
const FAILED = 'App\\Notifications\\MonitorFailedNotification';
const RECOVERED = 'App\\Notifications\\MonitorRecoveredNotification';
const SERVER = 'App\\Notifications\\ServerAlertNotification';

/** A company with a failure and a recovery (one of each kind: spec, ours), and a server alert. */
async function seedCompany(companyId: number) {
  const token = agent.tokenFor(companyId);
  const api = (path: string, init: RequestInit & { json?: unknown } = {}) => agent.api(path, { ...init, token });
  const monitor = await (await api('/api/monitors', { method: 'POST', json: { name: 'dump', timezone: 'UTC', schedule: '0 * * * *', duration: 5 } })).json();
  now += 1000;
  await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`);
  now += 1000;
  await fetch(`${agent.url}/api/pulse/${monitor.token}`);
  now += 1000;
  await api('/api/servers', { method: 'POST', json: { name: 'web', ip_address: '10.0.0.1', identifier: `web${companyId}` } });
  await api('/api/servers/alert', { method: 'POST', json: { username: 'root', server_id: `web${companyId}`, command: 'backup.sh' } });
  const list = async (query = '') => {
    const response = await api(`/api/notifications${query}`);
    expect(response.status).toBe(200);
    return response.json() as Promise<{ total: number; data: Notification[]; next_page_url: string | null; first_page_url: string }>;
  };
  return { api, list };
}

describe('the spec\'s kinds by default', () => {
  it('lists only MonitorFailed and SslCertificate notifications unless kinds=all, counting over them', async () => {
    const { list } = await seedCompany(21);
    const spec = await list();
    expect(spec.data.map((n) => n.type)).toEqual([FAILED]);
    expect(spec.total).toBe(1);
    const all = await list('?kinds=all');
    expect(all.data.map((n) => n.type)).toEqual([SERVER, RECOVERED, FAILED]);
    expect(all.total).toBe(3);
    const paged = await list('?kinds=all&per_page=1');
    expect(paged.next_page_url).toBe(`${agent.url}/api/notifications?per_page=1&kinds=all&page=2`);
  });

  it.each([['kinds', '?kinds=everything'], ['unread', '?unread=yes']])('answers 422 naming %s for %s', async (field, query) => {
    const response = await agent.api(`/api/notifications${query}`);
    expect(response.status).toBe(422);
    expect(Object.keys((await response.json()).errors)).toEqual([field]);
  });
});

describe('read state', () => {
  it('marks one read and unread again; unread=1 lists the unread ones', async () => {
    const { api, list } = await seedCompany(22);
    expect((await list('?unread=1&kinds=all')).total).toBe(3);
    const [newest] = (await list('?kinds=all')).data;
    now += 60_000;
    const response = await api(`/api/notifications/${newest.id}`, { method: 'PATCH', json: { read: true } });
    expect(response.status).toBe(200);
    const read: Notification = await response.json();
    expect(read.read_at).toMatch(TIMESTAMP);
    expect(read.updated_at).toBe(read.read_at);
    now += 60_000;
    // Read twice keeps the first read time.
    expect((await (await api(`/api/notifications/${newest.id}`, { method: 'PATCH', json: { read: true } })).json()).read_at).toBe(read.read_at);
    const unread = await list('?unread=1&kinds=all');
    expect(unread.total).toBe(2);
    expect(unread.data.map((n) => n.id)).not.toContain(newest.id);
    expect((await (await api(`/api/notifications/${newest.id}`, { method: 'PATCH', json: { read: false } })).json()).read_at).toBeNull();
    expect((await list('?unread=1&kinds=all')).total).toBe(3);
  });

  it('marks all of the company\'s notifications read, and no other company\'s', async () => {
    const mine = await seedCompany(23);
    const theirs = await seedCompany(24);
    const response = await mine.api('/api/notifications/read', { method: 'POST' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ marked: 3 });
    expect((await mine.list('?unread=1&kinds=all')).total).toBe(0);
    expect((await mine.list('?kinds=all')).data.every((n) => n.read_at !== null)).toBe(true);
    expect((await theirs.list('?unread=1&kinds=all')).total).toBe(3);
  });

  it('answers 401, 404 for another company\'s or a malformed id, and 422 for a bad body, changing nothing', async () => {
    const mine = await seedCompany(25);
    const theirs = await seedCompany(26);
    const [target] = (await mine.list('?kinds=all')).data;
    const state = () => agent.store.db.prepare('SELECT read_at, updated_at FROM notifications WHERE id = ?').get(target.id);
    const before = state();
    expect((await agent.api(`/api/notifications/${target.id}`, { method: 'PATCH', json: { read: true }, token: null })).status).toBe(401);
    expect((await agent.api('/api/notifications/read', { method: 'POST', token: null })).status).toBe(401);
    expect((await theirs.api(`/api/notifications/${target.id}`, { method: 'PATCH', json: { read: true } })).status).toBe(404);
    expect((await mine.api('/api/notifications/not-a-uuid', { method: 'PATCH', json: { read: true } })).status).toBe(404);
    for (const body of [{}, { read: 'yes' }, { read: 1 }, { read: null }]) {
      const response = await mine.api(`/api/notifications/${target.id}`, { method: 'PATCH', json: body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys((await response.json()).errors)).toEqual(['read']);
    }
    await theirs.api('/api/notifications/read', { method: 'POST' });
    expect(state()).toEqual(before);
  });
});

describe('certificate notifications keep the spec\'s types', () => {
  it('turns a stored certificate notification without an expiry into the "unreadable" kind on upgrade (migration 12)', () => {
    const { db } = agent.store;
    const note = (expiresAt: string | null) =>
      agent.store.notifications.create({
        companyId: 1,
        type: NOTIFICATION_KINDS.sslCertificate.type,
        data: { type: 'ssl_certificate', ssl_certificate_expires_at: expiresAt } as never,
        alert: { event: 'certificate', at: '', reason: { kind: 'other', title: '', description: '' }, monitor: null, server: null, run: null, expected_at: null },
        now,
      }).id;
    const unread = note(null);
    const read = note('2027-01-01T00:00:00.000000Z');
    const unreadable = migrations.find((m) => m.includes('SslCertificateUnreadableNotification'))!;
    db.exec(unreadable.slice(0, unreadable.indexOf('CREATE INDEX')));
    const typeOf = (id: string) => db.prepare('SELECT type FROM notifications WHERE id = ?').pluck().get(id);
    expect(typeOf(unread)).toBe('App\\Notifications\\SslCertificateUnreadableNotification');
    expect(typeOf(read)).toBe('App\\Notifications\\SslCertificateNotification');
  });
});
