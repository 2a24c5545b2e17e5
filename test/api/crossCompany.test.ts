import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutes } from '../helpers/appRoutes';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * Companies share one agent and never each other's data: a full key of company 2, the strongest
 * key a stranger could hold, tries every route of the app with company 1's ids in it.
 */

let agent: TestAgent;
let stranger: string;
const ids: Record<string, string> = {};

/** The id of company 1's resource a path names. */
function concrete(path: string): string {
  const resource = /^\/api\/([a-z-]+)\/:id/.exec(path)?.[1] ?? '';
  return path.replace(/:id\b/, ids[resource] ?? 'x').replace(/:[a-z_]+/gi, 'x');
}

/** A body each write would take from company 1's own key, so a refusal is the company's, not the input's. */
function bodyFor(method: string, path: string): unknown {
  if (method === 'GET' || method === 'DELETE') return undefined;
  const bodies: Record<string, unknown> = {
    'POST /api/servers/heartbeat': { server_id: 'db-01', jobs: 1 },
    'POST /api/servers/alert': { username: 'root', server_id: 'db-01', command: 'rm -rf /' },
    'PATCH /api/servers/:id': { name: 'taken over' },
    'PATCH /api/monitors/:id': { name: 'taken over' },
    'POST /api/monitors/:id/pause': { until: null },
    'PUT /api/monitors/:id/max-runtime': { max_runtime: 1 },
    'PUT /api/monitors/:id/alert-after': { alert_after: 9 },
    'PUT /api/monitors/:id/line-key': { key_id: Number(ids.ownKey) },
    'PATCH /api/notifications/:id': { read: true },
    'PATCH /api/ssl-certificates/:id': { channel_ids: [] },
    'PATCH /api/channels/:id': { name: 'taken over' },
    'PATCH /api/maintenance-windows/:id': { name: 'taken over' },
    'PATCH /api/keys/:id': { max_monitors: 1 },
    // Agent-wide: where every company's links and pulse URLs point, and the agent's own dead-man's switch.
    'PATCH /api/settings': { public_url: 'https://evil.example', watchdog_url: null },
  };
  return bodies[`${method} ${path}`] ?? {};
}

const OPEN = (method: string, path: string) =>
  path.startsWith('/api/pulse/') || path.startsWith('/api/badges/') || (method === 'POST' && path === '/api/session') || path === '/api/health';

/** Everything company 1 has, as its own full key reads it. */
async function companyOneState(): Promise<string> {
  const paths = ['/api/monitors', '/api/servers', '/api/channels', '/api/ssl-certificates', '/api/maintenance-windows', '/api/notifications?kinds=all', '/api/keys', '/api/settings'];
  const bodies = await Promise.all(paths.map(async (path) => (await agent.api(path)).text()));
  // last_used_at moves as company 1's key reads: not a change anyone made.
  return bodies.join('\n').replace(/"last_used_at":"[^"]*"/g, '');
}

beforeAll(async () => {
  agent = await startTestAgent();
  const post = async (path: string, json: unknown) => (await agent.api(path, { method: 'POST', json })).json();
  stranger = agent.tokenFor(2);
  ids.monitors = String((await post('/api/monitors', { name: 'payroll', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 })).id);
  ids.servers = String((await post('/api/servers', { name: 'ledger-box', ip_address: '10.0.0.5', identifier: 'db-01' })).id);
  ids['maintenance-windows'] = String((await post('/api/maintenance-windows', { starts_at: '2099-01-01T00:00:00Z', ends_at: '2099-01-02T00:00:00Z', monitor_ids: [Number(ids.monitors)] })).id);
  ids.notifications = (await post('/api/servers/alert', { username: 'root', server_id: 'db-01', command: '0 3 * * * backup' })).notification.id;
  // Made after the notification, so no delivery to it fails and changes it during the test.
  ids.channels = String((await post('/api/channels', { name: 'ops', kind: 'webhook', settings: { url: 'http://127.0.0.1:9/hook' } })).id);
  ids.keys = String(agent.store.apiTokens.listLive(1)[0].id);
  ids.ownKey = String(agent.store.apiTokens.listLive(2)[0].id);
  const certificate = agent.store.certificates.create({ companyId: 1, hostname: 'payroll.example', port: 443, warnDays: 14, now: agent.clock() });
  ids['ssl-certificates'] = String(certificate.id);
});
afterAll(() => agent.stop());

describe("another company's full key", () => {
  it("neither reads nor changes company 1's data on any route", async () => {
    const before = await companyOneState();
    const seen: string[] = [];
    for (const { method, path } of appRoutes(agent)) {
      if (OPEN(method, path) || path === '/api/events') continue;
      const url = concrete(path);
      const response = await agent.api(url, { method, token: stranger, json: bodyFor(method, path) });
      const text = await response.text();
      seen.push(`${method} ${url} ${response.status}`);
      expect(response.status, `${method} ${url}: ${text}`).toBeLessThan(500);
      for (const secret of ['payroll', 'ledger-box', '/hook', '10.0.0.5']) expect(text, `${method} ${url}`).not.toContain(secret);
    }
    expect(seen.length).toBeGreaterThan(40);
    expect(await companyOneState()).toBe(before);
  });

  it("cannot change the agent's own settings, which point company 1's links and pulse URLs", async () => {
    const response = await agent.api('/api/settings', { method: 'PATCH', token: stranger, json: { public_url: 'https://evil.example' } });
    expect(response.status).toBe(403);
    expect((await response.json()).message).toMatch(/only a full key of company 1/);
    const monitor = await (await agent.api(`/api/monitors/${ids.monitors}`)).json();
    expect(monitor.pulse_url).toBe(`${agent.url}/api/pulse/${monitor.token}`);
    // It still reads them: its own pulse URLs start with the public URL.
    expect((await agent.api('/api/settings', { token: stranger })).status).toBe(200);
  });

  it("cannot name company 1's channels, monitors or keys in its own things", async () => {
    const own = await (await agent.api('/api/monitors', { method: 'POST', token: stranger, json: { name: 'mine', timezone: 'UTC', schedule: '0 4 * * *', duration: 5 } })).json();
    const attempts: Array<[string, string, unknown, string]> = [
      ['POST', '/api/monitors', { name: 'x', timezone: 'UTC', schedule: '0 4 * * *', duration: 5, channel_ids: [Number(ids.channels)] }, 'channel_ids'],
      ['PATCH', `/api/monitors/${own.id}`, { channel_ids: [Number(ids.channels)] }, 'channel_ids'],
      ['POST', '/api/maintenance-windows', { starts_at: '2099-01-01T00:00:00Z', ends_at: '2099-01-02T00:00:00Z', monitor_ids: [Number(ids.monitors)] }, 'monitor_ids'],
      ['PUT', `/api/monitors/${own.id}/line-key`, { key_id: Number(ids.keys) }, 'key_id'],
    ];
    for (const [method, path, json, field] of attempts) {
      const response = await agent.api(path, { method, token: stranger, json });
      expect(response.status, `${method} ${path}`).toBe(422);
      expect((await response.json()).errors, `${method} ${path}`).toHaveProperty(field);
    }
  });

  it("never alerts company 1's channels, even with alerts going to every channel", async () => {
    const own = await (await agent.api('/api/monitors', { method: 'POST', token: stranger, json: { name: 'theirs', timezone: 'UTC', schedule: '0 5 * * *', duration: 5 } })).json();
    expect((await fetch(`${agent.url}/api/pulse/${own.token}/fail`, { method: 'POST', body: 'boom' })).status).toBe(200);
    const theirs = agent.store.notifications.page(2, 10, 0, { kinds: 'all', unread: false });
    expect(theirs.length).toBeGreaterThan(0);
    const count = agent.store.db.prepare('SELECT count(*) FROM deliveries WHERE channel_id = ?').pluck();
    expect(count.get(Number(ids.channels))).toBe(0);
    expect(agent.store.notifications.page(1, 100, 0, { kinds: 'all', unread: false }).some((n) => theirs.some((t) => t.id === n.id))).toBe(false);
  });
});
