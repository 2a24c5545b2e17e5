import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Router from '@koa/router';
import { routers } from '../../agent/api/app';
import type { ApiDeps } from '../../agent/api/deps';
import { HIDDEN_TOKEN } from '../../agent/api/present/tokenVisibility';
import { Receiver } from '../helpers/receiver';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { until } from '../helpers/until';

/*
 * A monitor's pulse token can fail it or turn a failed job green, so a read-only key must never
 * learn one: not from a monitor, a notification, a server's cron command, a receiver's answer or
 * a job's output. A full key keeps every field as the spec shapes it.
 */

let agent: TestAgent;
let readOnly: string;
let monitor: { id: number; token: string };
let hook: Receiver;

beforeAll(async () => {
  agent = await startTestAgent();
  readOnly = agent.store.apiTokens.create({ companyId: 1, name: 'wall', scope: 'read-only', now: Date.now() }).token;
  // A receiver that echoes what it was sent: its answer, kept on the delivery, carries the notification's token.
  hook = await new Receiver([(request, res) => void res.writeHead(200).end(request.body)]).start();
  const channel = await agent.api('/api/channels', { method: 'POST', json: { name: 'echo', kind: 'webhook', settings: { url: hook.url } } });
  expect(channel.status).toBe(201);
  monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })).json();
  // The job prints its own pulse URL, and fails: a failure notification (with monitor_token) is made and delivered.
  const failed = await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`, { method: 'POST', body: `curl ${agent.url}/api/pulse/${monitor.token.toUpperCase()}\nrequest 0b4e7f4c-0000-4000-8000-000000000000 failed` });
  expect(failed.status).toBe(200);
  const server = await (await agent.api('/api/servers', { method: 'POST', json: { name: 'web', ip_address: '10.0.0.1', identifier: 'web-01' } })).json();
  const alert = await agent.api('/api/servers/alert', {
    method: 'POST',
    json: { username: 'root', server_id: server.identifier, command: `cronbeat run ${monitor.token} -- backup.sh`, change: 'added' },
  });
  expect(alert.status).toBe(201);
  await hook.received(1);
  await until(() => agent.store.deliveries.forNotification(agent.store.notifications.page(1, 10, 0, { kinds: 'spec', unread: false })[0].id)[0]?.status === 'sent', 'the echo delivery');
});
afterAll(async () => {
  await agent.stop();
  await hook.stop();
});

/** Every GET route a read-only key may read, with the ids of the monitor, server and notification above. */
function readableRoutes(): string[] {
  const deps = { store: agent.store, events: agent.events, clock: agent.clock, log: () => {}, requireToken: async (_: unknown, next: () => Promise<void>) => next() } as unknown as ApiDeps;
  const notification = agent.store.notifications.page(1, 10, 0, { kinds: 'spec', unread: false })[0].id;
  const server = agent.store.servers.list(1)[0].id;
  const paths = new Set<string>();
  for (const make of routers) {
    for (const layer of (make(deps) as Router).stack) {
      const path = String(layer.path);
      if (!layer.methods.includes('GET') || !(path.startsWith('/api/') || path === '/metrics')) continue;
      if (path.startsWith('/api/pulse/') || path.startsWith('/api/badges/') || path.startsWith('/api/keys') || path === '/api/events') continue;
      const concrete = path
        .replace('/api/servers/:id', `/api/servers/${server}`)
        .replace('/api/notifications/:id', `/api/notifications/${notification}`)
        .replace(':id', String(monitor.id));
      paths.add(concrete);
      if (concrete === '/api/notifications') paths.add('/api/notifications?kinds=all');
    }
  }
  return [...paths];
}

describe('a read-only key never sees a pulse token', () => {
  it('gets token and pulse_url as null in the monitor list and details; a full key gets them as before', async () => {
    const [listed] = await (await agent.api('/api/monitors', { token: readOnly })).json();
    const details = await (await agent.api(`/api/monitors/${monitor.id}`, { token: readOnly })).json();
    for (const seen of [listed, details]) {
      expect(seen).toHaveProperty('token', null);
      expect(seen).toHaveProperty('pulse_url', null);
      expect(seen).toMatchObject({ id: monitor.id, name: 'backup', status: 'failed' });
    }
    const full = await (await agent.api(`/api/monitors/${monitor.id}`)).json();
    expect(full.token).toBe(monitor.token);
    expect(full.pulse_url).toBe(`${agent.url}/api/pulse/${monitor.token}`);
    // The same fields, in the same order, whoever reads.
    expect(Object.keys(details)).toEqual(Object.keys(full));
  });

  it('gets data.monitor_token as null in notifications (both lists); a full key gets the token', async () => {
    for (const query of ['', '?kinds=all']) {
      const seen = await (await agent.api(`/api/notifications${query}`, { token: readOnly })).json();
      const failure = seen.data.find((n: { data: { type: string } }) => n.data.type === 'monitor');
      expect(failure.data).toHaveProperty('monitor_token', null);
      const full = await (await agent.api(`/api/notifications${query}`)).json();
      expect(full.data.find((n: { data: { type: string } }) => n.data.type === 'monitor').data.monitor_token).toBe(monitor.token);
    }
  });

  it('finds the token in no answer of any GET route, in any spelling, while other ids stay readable', async () => {
    const routes = readableRoutes();
    expect(routes).toEqual(expect.arrayContaining(['/api/monitors', `/api/monitors/${monitor.id}/pulses`, '/metrics', '/api/notifications?kinds=all']));
    expect(routes.some((path) => /\/api\/servers\/\d+\/alerts$/.test(path))).toBe(true);
    expect(routes.some((path) => /\/api\/notifications\/[0-9a-f-]+\/deliveries$/.test(path))).toBe(true);
    let hidden = 0;
    for (const path of routes) {
      const response = await agent.api(path, { token: readOnly });
      expect(response.status, path).not.toBe(403);
      expect(response.status, path).toBeLessThan(500); // 404 only for a certificate or channel, of which there is none with that id
      const body = await response.text();
      expect(body.toLowerCase(), path).not.toContain(monitor.token);
      if (body.includes(HIDDEN_TOKEN)) hidden++;
    }
    expect(hidden).toBeGreaterThanOrEqual(3); // the job's output, the server's alerts, the receiver's answer
    const pulses = await (await agent.api(`/api/monitors/${monitor.id}/pulses`, { token: readOnly })).json();
    expect(pulses.data[0].body).toBe(`curl ${agent.url}/api/pulse/${HIDDEN_TOKEN}\nrequest 0b4e7f4c-0000-4000-8000-000000000000 failed`);
    // A full key reads the same texts as they were stored.
    const full = await (await agent.api(`/api/monitors/${monitor.id}/pulses`)).json();
    expect(full.data[0].body).toContain(monitor.token.toUpperCase());
    const server = agent.store.servers.list(1)[0].id;
    expect((await (await agent.api(`/api/servers/${server}/alerts`)).json())[0].command).toBe(`cronbeat run ${monitor.token} -- backup.sh`);
  });
});

describe('a token a person wrote into a name', () => {
  it('is hidden from a read-only key in monitor names, slugs and tags, server names, notifications and /metrics, and from badges', async () => {
    const target = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'target', timezone: 'UTC', schedule: '0 7 * * *', duration: 5 } })).json();
    // A monitor named after the curl line that pings another one, as people name them.
    const named = await agent.api('/api/monitors', {
      method: 'POST',
      json: { name: `curl ${agent.url}/api/pulse/${target.token}`, timezone: 'UTC', schedule: '0 7 * * *', duration: 5, tags: [`t:${target.token}`] },
    });
    expect(named.status).toBe(201);
    const copy = await named.json();
    expect((await agent.api('/api/servers', { method: 'POST', json: { name: `web ${target.token}`, ip_address: '10.0.0.2', identifier: 'web-02' } })).status).toBe(201);
    expect((await fetch(`${agent.url}/api/pulse/${copy.token}/fail`, { method: 'POST' })).status).toBe(200);
    const server = agent.store.servers.list(1).find((s) => s.identifier === 'web-02')!.id;
    for (const path of ['/api/monitors', `/api/monitors/${copy.id}`, '/metrics', '/api/servers', `/api/servers/${server}`, '/api/notifications', '/api/notifications?kinds=all']) {
      const body = await (await agent.api(path, { token: readOnly })).text();
      expect(body.toLowerCase(), path).not.toContain(target.token);
      expect(body, path).toContain(HIDDEN_TOKEN);
    }
    // Nor in the names of channels and maintenance windows.
    expect((await agent.api('/api/channels', { method: 'POST', json: { name: `hook for ${target.token}`, kind: 'webhook', settings: { url: hook.url } } })).status).toBe(201);
    const window = await agent.api('/api/maintenance-windows', { method: 'POST', json: { name: `pause ${target.token}`, starts_at: '2030-12-01T00:00:00Z', ends_at: '2030-12-01T01:00:00Z' } });
    expect(window.status).toBe(201);
    const windowId = (await window.json()).id;
    const channelId = agent.store.channels.list(1).find((c) => c.name.startsWith('hook for'))!.id;
    for (const path of ['/api/channels', `/api/channels/${channelId}`, '/api/maintenance-windows', `/api/maintenance-windows/${windowId}`]) {
      const body = await (await agent.api(path, { token: readOnly })).text();
      expect(body.toLowerCase(), path).not.toContain(target.token);
      expect(body, path).toContain(HIDDEN_TOKEN);
    }
    // Nor does a badge, which a public README shows to anyone.
    const badgeKey = agent.store.apiTokens.create({ companyId: 1, name: 'readme', scope: 'badge', now: Date.now() }).token;
    for (const file of [`${copy.id}.svg`, `${copy.id}.json`]) {
      const badge = await (await fetch(`${agent.url}/api/badges/${badgeKey}/monitors/${file}`)).text();
      expect(badge, file).toContain(HIDDEN_TOKEN.replace(/[[\]]/g, ''));
      expect(badge.toLowerCase(), file).not.toContain(target.token);
    }
    // A full key reads the names as written.
    expect((await (await agent.api(`/api/monitors/${copy.id}`)).json()).name).toBe(`curl ${agent.url}/api/pulse/${target.token}`);
  });

  it("is hidden from a read-only key in a monitor's settings history, a channel's report preview and a delivery's channel name, even after the rename", async () => {
    const target = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'history target', timezone: 'UTC', schedule: '0 7 * * *', duration: 5 } })).json();
    const renamed = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'renamed', timezone: 'UTC', schedule: '0 7 * * *', duration: 5 } })).json();
    // A channel named after the target's token too: a delivery to it names it.
    expect((await agent.api('/api/channels', { method: 'POST', json: { name: `hook of ${target.token}`, kind: 'webhook', settings: { url: hook.url } } })).status).toBe(201);
    // Named after the curl line that pings the target (and tagged with it), failing, then given its plain name back.
    const edit = await agent.api(`/api/monitors/${renamed.id}`, { method: 'PATCH', json: { name: `curl ${agent.url}/api/pulse/${target.token}`, tags: [`t:${target.token}`] } });
    expect(edit.status).toBe(200);
    expect((await fetch(`${agent.url}/api/pulse/${renamed.token}/fail`, { method: 'POST' })).status).toBe(200);
    const preview = agent.store.channels.list(1)[0].id;
    const fullPreview = await (await agent.api(`/api/channels/${preview}/report-preview`)).text();
    expect(fullPreview).toContain(target.token);
    for (const path of [`/api/channels/${preview}/report-preview`, `/api/channels/${preview}/report-preview?frequency=weekly`]) {
      const body = await (await agent.api(path, { token: readOnly })).text();
      expect(body.toLowerCase(), path).not.toContain(target.token);
      expect(body, path).toContain(HIDDEN_TOKEN);
    }
    const failure = agent.store.notifications.page(1, 10, 0, { kinds: 'spec', unread: false }).find((n) => n.data.type_id === renamed.id)!;
    const deliveries = await (await agent.api(`/api/notifications/${failure.id}/deliveries`, { token: readOnly })).text();
    expect(deliveries).toContain(`hook of ${HIDDEN_TOKEN}`);
    expect(deliveries.toLowerCase()).not.toContain(target.token);
    expect((await agent.api(`/api/monitors/${renamed.id}`, { method: 'PATCH', json: { name: 'renamed', tags: [] } })).status).toBe(200);
    const history = await agent.api(`/api/monitors/${renamed.id}/changes`, { token: readOnly });
    expect(history.status).toBe(200);
    const body = await history.text();
    expect(body.toLowerCase()).not.toContain(target.token);
    const changes = JSON.parse(body);
    expect(changes[0].changes.name).toEqual({ from: `curl ${agent.url}/api/pulse/${HIDDEN_TOKEN}`, to: 'renamed' });
    expect(changes[0].changes.tags).toEqual({ from: [`t:${HIDDEN_TOKEN}`], to: [] });
    // A full key reads the history as it was written.
    expect(JSON.stringify(await (await agent.api(`/api/monitors/${renamed.id}/changes`)).json())).toContain(target.token);
  });
});

describe("a ping key's server reports", () => {
  it("answer about a server named after a monitor's token without the token (only its own line's tokens are a ping key's)", async () => {
    const target = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'watched target', timezone: 'UTC', schedule: '0 7 * * *', duration: 5 } })).json();
    const named = { name: `box ${target.token}`, ip_address: '10.0.0.9', identifier: 'box-09' };
    expect((await agent.api('/api/servers', { method: 'POST', json: named })).status).toBe(201);
    const ping = agent.store.apiTokens.create({ companyId: 1, name: 'watcher', scope: 'ping', now: Date.now() }).token;
    const heartbeat = await agent.api('/api/servers/heartbeat', { method: 'POST', token: ping, json: { server_id: 'box-09', interval_seconds: 60 } });
    expect(heartbeat.status).toBe(200);
    expect(await heartbeat.json()).toMatchObject({ name: `box ${HIDDEN_TOKEN}`, identifier: 'box-09', watched_jobs: null });
    const alert = await agent.api('/api/servers/alert', { method: 'POST', token: ping, json: { username: 'root', server_id: 'box-09', command: '/usr/local/bin/job.sh', change: 'added' } });
    expect(alert.status).toBe(201);
    const answer = await alert.text();
    expect(answer.toLowerCase()).not.toContain(target.token);
    expect(answer).toContain(HIDDEN_TOKEN);
    // A full key reads the server's name as written.
    const full = await agent.api('/api/servers/heartbeat', { method: 'POST', json: { server_id: 'box-09' } });
    expect((await full.json()).name).toBe(named.name);
  });
});

describe('a token cut in two where a text was cut', () => {
  it('its part at the cut is hidden from a read-only key: the rest would be few enough digits to guess', async () => {
    const made = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'cut job', timezone: 'UTC', schedule: '0 8 * * *', duration: 5 } })).json();
    // cronbeat run sends the last 100 KB of the output, which may begin inside the token the job printed.
    const suffix = made.token.slice(7);
    expect((await fetch(`${agent.url}/api/pulse/${made.token}`, { method: 'POST', body: `${suffix} was pinged\ndone` })).status).toBe(200);
    // The agent keeps the first 100 KB of a body, which may end inside it.
    const filler = 'x'.repeat(100 * 1024 - 30);
    expect((await fetch(`${agent.url}/api/pulse/${made.token}`, { method: 'POST', body: `${filler} ${made.token} and more after it` })).status).toBe(200);
    const seen = await (await agent.api(`/api/monitors/${made.id}/pulses`, { token: readOnly })).json();
    const [cutAtEnd, cutAtStart] = seen.data.map((p: { body: string }) => p.body);
    expect(cutAtStart).toBe(`${HIDDEN_TOKEN} was pinged\ndone`);
    expect(cutAtEnd.startsWith(`${filler} ${HIDDEN_TOKEN}\n[… `)).toBe(true);
    for (const body of [cutAtStart, cutAtEnd]) expect(body).not.toContain(made.token.slice(10, 28));
    // An alert keeps the last 4,000 characters of the output, which may begin inside it too.
    const failing = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'cut alert', timezone: 'UTC', schedule: '0 8 * * *', duration: 5 } })).json();
    const output = `${'y'.repeat(5000)}${failing.token}${'z'.repeat(4000 - (failing.token.length - 7))}`;
    expect((await fetch(`${agent.url}/api/pulse/${failing.token}/fail`, { method: 'POST', body: output })).status).toBe(200);
    const all = await (await agent.api('/api/notifications?kinds=all', { token: readOnly })).json();
    const alert = all.data.find((n: { data: { type_id?: number } }) => n.data.type_id === failing.id).alert;
    expect(alert.run.output_tail.startsWith(`${HIDDEN_TOKEN}zzz`)).toBe(true);
    // Other hex at either end stays: a commit id, a short id.
    expect((await fetch(`${agent.url}/api/pulse/${made.token}`, { method: 'POST', body: '3f2a1b4c5d6e pulled\nat 0123abcd' })).status).toBe(200);
    expect((await (await agent.api(`/api/monitors/${made.id}/pulses`, { token: readOnly })).json()).data[0].body).toBe('3f2a1b4c5d6e pulled\nat 0123abcd');
  });
});

describe('a token written without its dashes', () => {
  it('is hidden from a read-only key too (Python\'s uuid.hex prints it so), and only a live one', async () => {
    const made = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'hex job', timezone: 'UTC', schedule: '0 6 * * *', duration: 5 } })).json();
    const hex = made.token.replace(/-/g, '');
    const other = '0b4e7f4c00004000800000000000000a';
    const sent = await fetch(`${agent.url}/api/pulse/${made.token}`, { method: 'POST', body: `monitor ${hex} done; request ${other}; ${hex.toUpperCase()}` });
    expect(sent.status).toBe(200);
    const seen = await (await agent.api(`/api/monitors/${made.id}/pulses`, { token: readOnly })).json();
    expect(seen.data[0].body).toBe(`monitor ${HIDDEN_TOKEN} done; request ${other}; ${HIDDEN_TOKEN}`);
    const full = await (await agent.api(`/api/monitors/${made.id}/pulses`)).json();
    expect(full.data[0].body).toContain(hex);
  });
});

describe('POST /api/monitors/{id}/token', () => {
  /** The token spelt so that only Koa's door takes it (plainPulses.ts): its first character percent-encoded. */
  const throughKoa = (token: string) => `%${token.charCodeAt(0).toString(16).toUpperCase()}${token.slice(1)}`;

  it('gives the monitor a new token, answered as GET /api/monitors/{id} answers, and the old one is refused at once by both doors', async () => {
    const made = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'rotate me', timezone: 'UTC', schedule: '0 4 * * *', duration: 5 } })).json();
    expect((await fetch(`${agent.url}/api/pulse/${made.token}`)).status).toBe(200);
    const rotated = await agent.api(`/api/monitors/${made.id}/token`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const answer = await rotated.json();
    expect(answer.token).not.toBe(made.token);
    expect(answer.token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(answer.pulse_url).toBe(`${agent.url}/api/pulse/${answer.token}`);
    expect(answer).toEqual(await (await agent.api(`/api/monitors/${made.id}`)).json());

    const pulsesBefore = agent.store.pulses.count(made.id);
    for (const path of [`/api/pulse/${made.token}`, `/api/pulse/${made.token}/fail`, `/api/pulse/${throughKoa(made.token)}`, `/api/pulse/${throughKoa(made.token)}/0`]) {
      for (const method of ['GET', 'POST']) {
        const refused = await fetch(agent.url + path, { method });
        expect(refused.status, `${method} ${path}`).toBe(404);
        expect((await refused.json()).message).toMatch(/Monitor not found|No query results/i);
      }
    }
    expect(agent.store.pulses.count(made.id)).toBe(pulsesBefore);
    expect(agent.store.monitors.find(1, made.id)!.is_alerted).toBe(0);
    expect((await fetch(`${agent.url}/api/pulse/${answer.token}`)).status).toBe(200);
    expect((await fetch(`${agent.url}/api/pulse/${throughKoa(answer.token)}`)).status).toBe(200);

    // The history says a new token was made, never either token.
    const changes = await (await agent.api(`/api/monitors/${made.id}/changes`)).json();
    expect(changes[0]).toMatchObject({ source: 'api', changes: { token: { from: 'old', to: 'new' } } });
    expect(JSON.stringify(changes)).not.toContain(made.token);
    expect(JSON.stringify(changes)).not.toContain(answer.token);
  });

  it('is for a full key only, answers 404 for a monitor of another company, deleted or unknown, and changes nothing then', async () => {
    const made = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'kept', timezone: 'UTC', schedule: '0 5 * * *', duration: 5 } })).json();
    const ping = agent.store.apiTokens.create({ companyId: 1, name: 'ping', scope: 'ping', now: Date.now() }).token;
    for (const token of [readOnly, ping]) expect((await agent.api(`/api/monitors/${made.id}/token`, { method: 'POST', token })).status).toBe(403);
    expect((await agent.api(`/api/monitors/${made.id}/token`, { method: 'POST', token: null })).status).toBe(401);
    expect((await agent.api(`/api/monitors/${made.id}/token`, { method: 'POST', token: agent.tokenFor(2) })).status).toBe(404);
    expect((await agent.api('/api/monitors/999999/token', { method: 'POST' })).status).toBe(404);
    expect((await agent.api('/api/monitors/abc/token', { method: 'POST' })).status).toBe(404);
    expect(agent.store.monitors.find(1, made.id)!.token).toBe(made.token);
    expect((await agent.api(`/api/monitors/${made.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await agent.api(`/api/monitors/${made.id}/token`, { method: 'POST' })).status).toBe(404);
  });

  it('leaves the monitor itself as it was: name, schedule, status, run history', async () => {
    const before = await (await agent.api(`/api/monitors/${monitor.id}`)).json();
    const pulses = agent.store.pulses.count(monitor.id);
    const after = await (await agent.api(`/api/monitors/${monitor.id}/token`, { method: 'POST' })).json();
    const { token: _a, pulse_url: _b, updated_at: _c, ...kept } = before;
    const { token: _d, pulse_url: _e, updated_at: _f, ...now } = after;
    expect(now).toEqual(kept);
    expect(agent.store.pulses.count(monitor.id)).toBe(pulses);
    // The old token, now nobody's, is no longer hidden from a read-only key (it opens nothing); the new one is.
    const body = await (await agent.api(`/api/monitors/${monitor.id}/pulses`, { token: readOnly })).text();
    expect(body).toContain(monitor.token.toUpperCase());
    expect(body).not.toContain(after.token);
  });
});
