import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutes } from '../helpers/appRoutes';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

let agent: TestAgent;
let keys: Record<'ping' | 'read-only' | 'badge' | 'full', string>;
let monitorId: number;
let monitorToken: string;

beforeAll(async () => {
  agent = await startTestAgent();
  const make = (scope: 'ping' | 'read-only' | 'badge' | 'full') => agent.store.apiTokens.create({ companyId: 1, name: scope, scope, now: Date.now() }).token;
  keys = { ping: make('ping'), 'read-only': make('read-only'), badge: make('badge'), full: make('full') };
  const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })).json();
  monitorId = monitor.id;
  monitorToken = monitor.token;
});
afterAll(() => agent.stop());

/** A concrete URL for a route pattern: ids of a real monitor, so a refusal is not a 404 in disguise. */
function concrete(path: string): string {
  return path
    .replace(':token', monitorToken)
    .replace(':action', 'start')
    .replace(/:id\b/, String(monitorId))
    .replace(/:[a-z_]+/gi, 'x');
}

/** Routes that take no Bearer key at all: pulses carry their monitor's token or a ping key in the path, sign-in trades a code, the health check tells nothing. */
const OPEN = (method: string, path: string) =>
  path.startsWith('/api/pulse/') || path.startsWith('/api/badges/') || (method === 'POST' && path === '/api/session') || path === '/api/health';

/** What a server's watcher (`cronbeat crontab watch`) sends, with the ping key a server holds. */
const SERVER_REPORTS = ['POST /api/servers/heartbeat', 'POST /api/servers/alert'];

describe('scoped keys, route by route', () => {
  it('finds the routes from the routers (a sanity check on the enumeration)', () => {
    const routes = appRoutes(agent);
    expect(routes.length).toBeGreaterThan(40);
    expect(routes).toContainEqual({ method: 'DELETE', path: '/api/monitors/:id' });
    expect(routes).toContainEqual({ method: 'GET', path: '/api/keys' });
  });

  it('a ping key and a badge key get 403 on every route that takes a Bearer key, and change nothing', async () => {
    const before = JSON.stringify(agent.store.monitors.list(1));
    const checked: string[] = [];
    for (const { method, path } of appRoutes(agent)) {
      if (OPEN(method, path)) continue;
      for (const scope of ['ping', 'badge'] as const) {
        if (scope === 'ping' && SERVER_REPORTS.includes(`${method} ${path}`)) continue; // below
        const response = await agent.api(concrete(path), { method, token: keys[scope], json: method === 'GET' || method === 'DELETE' ? undefined : {} });
        expect(response.status, `${scope} ${method} ${path}`).toBe(403);
        expect((await response.json()).message).toMatch(scope === 'ping' ? /ping key may only send pulses/ : /badge key/);
      }
      checked.push(`${method} ${path}`);
    }
    expect(checked.length).toBeGreaterThan(35);
    expect(JSON.stringify(agent.store.monitors.list(1))).toBe(before);
    expect(agent.store.monitors.find(1, monitorId)).not.toBeNull();
  });

  it('a read-only key reads every GET route but gets 403 on every write and on the keys', async () => {
    for (const { method, path } of appRoutes(agent)) {
      if (OPEN(method, path)) continue;
      const url = concrete(path);
      if (method === 'GET' && !path.startsWith('/api/keys')) {
        if (path === '/api/events') continue; // a stream that stays open; see the events test below
        const response = await agent.api(url, { token: keys['read-only'] });
        expect(response.status, `GET ${path}`).not.toBe(403);
        expect(response.status, `GET ${path}`).toBeLessThan(500);
        await response.arrayBuffer();
      } else {
        const response = await agent.api(url, { method, token: keys['read-only'], json: method === 'GET' || method === 'DELETE' ? undefined : {} });
        expect(response.status, `${method} ${path}`).toBe(403);
        await response.arrayBuffer();
      }
    }
    expect(agent.store.monitors.find(1, monitorId)).not.toBeNull();
  });

  it("a ping key, the key on a server, sends that server's watcher reports, and nothing else of the servers", async () => {
    const server = await (await agent.api('/api/servers', { method: 'POST', json: { name: 'web 1', ip_address: '10.0.0.7', identifier: 'web-1' } })).json();
    const heartbeat = await agent.api('/api/servers/heartbeat', { method: 'POST', token: keys.ping, json: { server_id: 'web-1', interval_seconds: 60, jobs: 3 } });
    expect(heartbeat.status).toBe(200);
    expect(await heartbeat.json()).toMatchObject({ identifier: 'web-1', watched_jobs: 3 });
    const alert = await agent.api('/api/servers/alert', { method: 'POST', token: keys.ping, json: { username: 'root', server_id: 'web-1', command: '0 3 * * * backup', change: 'added' } });
    expect(alert.status).toBe(201);
    expect((await alert.json()).alert).toMatchObject({ username: 'root', command: '0 3 * * * backup' });
    // With a trailing slash, which names the same path for every route and key.
    const slashed = await agent.api('/api/servers/heartbeat/', { method: 'POST', token: keys.ping, json: { server_id: 'web-1', jobs: 4 } });
    expect(slashed.status).toBe(200);
    expect(await slashed.json()).toMatchObject({ identifier: 'web-1', watched_jobs: 4 });
    // The rest of the servers stays out of its reach, as before.
    for (const [method, path] of [['GET', '/api/servers'], ['GET', `/api/servers/${server.id}`], ['GET', `/api/servers/${server.id}/alerts`], ['DELETE', `/api/servers/${server.id}`]]) {
      const response = await agent.api(path, { method, token: keys.ping });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect((await response.json()).message).toMatch(/ping key may only send pulses \(\/api\/pulse\/…\) and a server watcher's reports/);
    }
    // A read-only or badge key still may not report.
    for (const scope of ['read-only', 'badge'] as const) {
      const response = await agent.api('/api/servers/heartbeat', { method: 'POST', token: keys[scope], json: { server_id: 'web-1', jobs: 3 } });
      expect(response.status, scope).toBe(403);
    }
  });

  it('a read-only key follows the live stream', async () => {
    const controller = new AbortController();
    const response = await agent.api('/api/events', { token: keys['read-only'], signal: controller.signal });
    expect(response.status).toBe(200);
    controller.abort();
  });

  it('a ping key still sends pulses, by the monitor token', async () => {
    const response = await fetch(`${agent.url}/api/pulse/${monitorToken}`);
    expect(response.status).toBe(200);
  });
});

describe('the keys API', () => {
  it('creates a key shown once, lists it with its scope and last use, and revokes it at once', async () => {
    const created = await agent.api('/api/keys', { method: 'POST', token: keys.full, json: { name: 'web-01', scope: 'read-only' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const key = await created.json();
    expect(key).toMatchObject({ name: 'web-01', scope: 'read-only', last_used_at: null });
    expect(key.key).toMatch(/^cb_[A-Za-z0-9_-]{43}$/);

    expect((await agent.api('/api/monitors', { token: key.key })).status).toBe(200);
    const listed = await (await agent.api('/api/keys', { token: keys.full })).json();
    const entry = listed.find((k: { id: number }) => k.id === key.id);
    expect(entry.last_used_at).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(key.key);
    for (const k of listed) expect(k).not.toHaveProperty('key');

    expect((await agent.api(`/api/keys/${key.id}`, { method: 'DELETE', token: keys.full })).status).toBe(204);
    expect((await agent.api('/api/monitors', { token: key.key })).status).toBe(401);
    expect((await agent.api(`/api/keys/${key.id}`, { method: 'DELETE', token: keys.full })).status).toBe(404);
  });

  it('refuses a key with a wrong scope or no name, naming the field', async () => {
    const wrong = await agent.api('/api/keys', { method: 'POST', token: keys.full, json: { name: 'x', scope: 'admin' } });
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).errors.scope[0]).toMatch(/full, read-only, ping, badge/);
    const nameless = await agent.api('/api/keys', { method: 'POST', token: keys.full, json: { scope: 'ping' } });
    expect((await nameless.json()).errors).toHaveProperty('name');
  });

  it("never lists or revokes another company's keys", async () => {
    const other = agent.tokenFor(2);
    const listed = await (await agent.api('/api/keys', { token: other })).json();
    expect(listed.map((k: { name: string }) => k.name)).toEqual(['test']);
    const mine = agent.store.apiTokens.listLive(1)[0];
    expect((await agent.api(`/api/keys/${mine.id}`, { method: 'DELETE', token: other })).status).toBe(404);
  });
});
