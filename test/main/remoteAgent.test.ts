import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { checkAgent } from '../../agent/client/connection/agentCheck';
import { connectRequest } from '../../main/connectRequest';
import type { FollowerPopup } from '../../agent/client/follow/notificationPopups';
import type { NotificationCursor } from '../../agent/client/follow/notificationCursor';
import { RemoteAgent } from '../../main/remoteAgent';
import { remoteTrayModel } from '../../main/trayModel';
import { closedPort } from '../helpers/cli';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { makeLeaf, startTlsServer } from '../engine/certificates/tls-fixtures';

/*
 * The desktop app connected to an agent on another machine, without Electron: a real agent
 * over HTTP, the app's RemoteAgent with popups recorded. What the tray and popups would show.
 */

let agents: TestAgent[] = [];
let remotes: RemoteAgent[] = [];
let fronts: Server[] = [];
afterEach(async () => {
  for (const remote of remotes) await remote.stop();
  for (const front of fronts) {
    front.closeAllConnections();
    front.close();
  }
  for (const agent of agents) await agent.stop();
  remotes = [];
  fronts = [];
  agents = [];
});

interface FrontOptions {
  /** Answers a request itself (true) rather than passing it on: a 503, a broken list, a stream noted (false). */
  intercept?: (request: IncomingMessage, response: ServerResponse) => boolean;
  /** The agent's path for a request's (a proxy's sub-path taken off). */
  pathOf?: (url: string) => string;
  /** The headers an answer is passed back with (a Date rewritten). */
  headersOf?: (request: IncomingMessage, answer: IncomingMessage) => IncomingHttpHeaders;
}

/** A server in front of `agent` (a proxy, a load balancer) that passes requests on as they are unless told otherwise; its URL. */
async function inFrontOf(agent: TestAgent, { intercept, pathOf = (url) => url, headersOf = (_request, answer) => answer.headers }: FrontOptions = {}): Promise<string> {
  const front = createServer((request, response) => {
    if (intercept?.(request, response)) return;
    const forwarded = httpRequest(`${agent.url}${pathOf(request.url!)}`, { method: request.method, headers: { ...request.headers, host: new URL(agent.url).host } }, (answer) => {
      response.writeHead(answer.statusCode!, headersOf(request, answer));
      answer.pipe(response);
    });
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  fronts.push(front);
  return `http://127.0.0.1:${(front.address() as { port: number }).port}`;
}

async function agentWithMonitor(): Promise<{ agent: TestAgent; monitor: { id: number; token: string } }> {
  const agent = await startTestAgent();
  agents.push(agent);
  const response = await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly backup', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } });
  return { agent, monitor: (await response.json()) as { id: number; token: string } };
}

const keyOf = (agent: TestAgent, scope: 'full' | 'read-only' | 'ping') =>
  agent.store.apiTokens.create({ companyId: 1, name: scope, scope, now: Date.now() }).token;

/** Resolves once `condition` holds, checking whenever the remote agent reports a change. */
function connect(agent: TestAgent, key: string, access: 'full' | 'read-only', through: { url?: string; refreshRetryMs?: number; saved?: { cursor?: NotificationCursor } } = {}) {
  const popups: FollowerPopup[] = [];
  const waiters = new Set<() => void>();
  const remote = new RemoteAgent({
    url: through.url ?? agent.url,
    refreshRetryMs: through.refreshRetryMs,
    cursor: through.saved?.cursor,
    saveCursor: through.saved && ((cursor) => (through.saved!.cursor = cursor)),
    key,
    access,
    popup: (popup) => (popups.push(popup), waiters.forEach((w) => w())),
    onChange: () => waiters.forEach((w) => w()),
    log: () => {},
    timeOfDay: () => '14:02',
  });
  remotes.push(remote);
  const until = (condition: () => boolean, label: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => condition() && (waiters.delete(check), clearTimeout(timer), resolve());
      const timer = setTimeout(() => (waiters.delete(check), reject(new Error(`timed out: ${label}`))), 20_000);
      waiters.add(check);
      check();
    });
  remote.start();
  return { remote, popups, until };
}

describe('the desktop app connected to a remote agent', () => {
  it('shows its monitors in the tray, a popup for each new notification, once, and pauses on it', async () => {
    const { agent, monitor } = await agentWithMonitor();
    const { remote, popups, until } = connect(agent, keyOf(agent, 'full'), 'full');
    await until(() => remote.snapshot !== null, 'the first snapshot');
    expect(remote.snapshot!.monitors).toEqual([{ id: monitor.id, name: 'nightly backup', status: 'new' }]);

    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`, { method: 'POST' })).status).toBe(200);
    await until(() => popups.length === 1 && remote.snapshot!.monitors[0].status === 'failed', 'the failure popup and the red tray');
    expect(popups[0]).toEqual({ title: 'nightly backup failed', body: expect.any(String), route: `/monitors/${monitor.id}` });
    const model = remoteTrayModel({ name: remote.name, snapshot: remote.snapshot, ...remote.status }, () => '14:02');
    expect(model).toMatchObject({ state: 'failed', tooltip: 'Cronbeat on 127.0.0.1: 1 failed', failed: [{ label: 'nightly backup', monitorId: monitor.id }] });

    expect(remote.canChange).toBe(true);
    await remote.pause(monitor.id, null);
    await until(() => remote.snapshot!.monitors[0].status === 'paused', 'the paused monitor');
    expect(agent.store.monitors.find(1, monitor.id)?.paused_at).not.toBeNull();
    expect(popups).toHaveLength(1);
  });

  it('turns the tray red for a server whose crontab watcher went quiet there', async () => {
    const { agent } = await agentWithMonitor();
    const now = Date.now();
    const web = agent.store.servers.create({ companyId: 1, name: 'web 1', identifier: 'web-1', ipAddress: '10.0.0.1', now: now - 600_000 });
    agent.store.serverReports.record({ serverId: web.id, now: now - 600_000, intervalSeconds: 60, jobs: 1, quietAlertAt: now - 419_000 });
    const { remote, until } = connect(agent, keyOf(agent, 'read-only'), 'read-only');
    await until(() => remote.snapshot !== null, 'the first snapshot');
    const model = remoteTrayModel({ name: remote.name, snapshot: remote.snapshot, ...remote.status }, () => '14:02');
    expect(model).toMatchObject({ state: 'failed', failed: [{ label: 'web 1 (quiet)', route: `/servers/${web.id}` }] });
    expect(model.tooltip).toMatch(/ · 1 server quiet$/);
  });

  it('with a read-only key it watches and may not pause', async () => {
    const { agent, monitor } = await agentWithMonitor();
    const { remote, until } = connect(agent, keyOf(agent, 'read-only'), 'read-only');
    await until(() => remote.snapshot !== null, 'the first snapshot');
    expect(remote.canChange).toBe(false);
    await expect(remote.pause(monitor.id, null)).rejects.toThrow(/403/);
  });

  it('reads the lists again when a read failed while the stream stayed up, so the tray does not keep an old state', async () => {
    const { agent, monitor } = await agentWithMonitor();
    // In front of the agent: its first three answers to the monitors list are 503s (one read's every attempt), the rest pass as they are.
    let refused = 0;
    const url = await inFrontOf(agent, {
      intercept: (request, response) => {
        if (request.url !== '/api/monitors' || refused >= 3) return false;
        refused += 1;
        response.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"busy"}');
        return true;
      },
    });
    const { remote, until } = connect(agent, keyOf(agent, 'read-only'), 'read-only', { url, refreshRetryMs: 50 });
    await until(() => remote.snapshot !== null, 'the snapshot, once the agent answers again');
    expect(refused).toBe(3);
    expect(remote.snapshot!.monitors).toEqual([{ id: monitor.id, name: 'nightly backup', status: 'new' }]);
  });

  it('reads a list of monitors past 8 MB (tens of thousands of them), as the CLI does, instead of staying at "connecting…"', async () => {
    const { agent } = await agentWithMonitor();
    const many = JSON.stringify(Array.from({ length: 30_000 }, (_, i) => ({ id: i + 1, name: `job ${i + 1} ${'x'.repeat(300)}`, status: 'monitoring' })));
    expect(many.length).toBeGreaterThan(8 * 1024 * 1024);
    const url = await inFrontOf(agent, { intercept: (request, response) => request.url === '/api/monitors' && Boolean(response.writeHead(200, { 'content-type': 'application/json' }).end(many)) });
    const { remote, until } = connect(agent, keyOf(agent, 'read-only'), 'read-only', { url, refreshRetryMs: 50 });
    await until(() => remote.snapshot !== null, 'the snapshot of 30,000 monitors');
    expect(remote.snapshot!.monitors).toHaveLength(30_000);
  });

  it('turns red and says so when its monitors cannot be read any more while the stream stays up (a damaged database there), not green from before', async () => {
    const { agent, monitor } = await agentWithMonitor();
    let broken = false;
    const url = await inFrontOf(agent, {
      intercept: (request, response) =>
        request.url === '/api/monitors' && broken && Boolean(response.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"database disk image is malformed"}')),
    });
    const { remote, until } = connect(agent, keyOf(agent, 'read-only'), 'read-only', { url, refreshRetryMs: 50 });
    const model = () => remoteTrayModel({ name: remote.name, snapshot: remote.snapshot, ...remote.status }, () => '14:02');
    await until(() => model().state === 'idle' && remote.snapshot !== null, 'the first snapshot (a new monitor)');
    broken = true;
    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}`, { method: 'POST' })).status).toBe(200); // a change the stream announces
    await until(() => model().state === 'failed', 'the red tray');
    expect(model()).toEqual({ state: 'failed', tooltip: 'Cronbeat on 127.0.0.1 cannot read its monitors: 500 database disk image is malformed', failed: [] });
    broken = false;
    await until(() => model().state === 'ok', 'the tray back once they are read again');
  });

  it("says when the agent's clock is off this computer's, from the time its answers carry", async () => {
    const { agent } = await agentWithMonitor();
    const url = await inFrontOf(agent, {
      // The monitors list's answer says the agent's clock is 10 minutes ahead.
      headersOf: (request, answer) => (request.url === '/api/monitors' ? { ...answer.headers, date: new Date(Date.now() + 10 * 60_000).toUTCString() } : answer.headers),
    });
    const { remote, until } = connect(agent, keyOf(agent, 'read-only'), 'read-only', { url });
    await until(() => remote.snapshot !== null, 'the first snapshot');
    const model = remoteTrayModel({ name: remote.name, snapshot: remote.snapshot, ...remote.status }, () => '14:02');
    expect(model.tooltip).toMatch(/^Cronbeat on 127\.0\.0\.1: 1 new · its clock is (9 min 5\d s|10 min) ahead of this computer's$/);
  });

  it('says it is reconnecting while the agent restarts, before a minute makes it unreachable, and stops saying so once back', async () => {
    const { agent } = await agentWithMonitor();
    let down = false;
    const streams = new Set<import('node:http').ServerResponse>();
    const url = await inFrontOf(agent, {
      intercept: (request, response) => {
        if (down) return Boolean(response.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"restarting"}'));
        if (request.url === '/api/events') streams.add(response);
        return false;
      },
    });
    const { remote, until } = connect(agent, keyOf(agent, 'read-only'), 'read-only', { url });
    const model = () => remoteTrayModel({ name: remote.name, snapshot: remote.snapshot, ...remote.status }, () => '14:02');
    await until(() => remote.snapshot !== null, 'the first snapshot');
    expect(model().tooltip).toBe('Cronbeat on 127.0.0.1: 1 new');
    down = true;
    for (const stream of streams) stream.destroy();
    await until(() => model().tooltip === 'Cronbeat on 127.0.0.1: 1 new · reconnecting since 14:02', 'the tray saying it reconnects');
    down = false;
    await until(() => model().tooltip === 'Cronbeat on 127.0.0.1: 1 new', 'the tray back');
  });

  it('shows on its next start what failed there while the app was closed, once, and nothing again on the start after', async () => {
    const { agent, monitor } = await agentWithMonitor();
    const key = keyOf(agent, 'read-only');
    const saved: { cursor?: NotificationCursor } = {};
    const first = connect(agent, key, 'read-only', { saved });
    // The tray's lists are read once what was missed is handed over: the first look is done.
    await first.until(() => first.remote.snapshot !== null, 'the first look');
    await first.remote.stop();

    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`, { method: 'POST' })).status).toBe(200);
    const second = connect(agent, key, 'read-only', { saved });
    await second.until(() => second.popups.length === 1, 'the popup of the failure made while closed');
    expect(second.popups[0]).toEqual({ title: 'nightly backup failed', body: expect.any(String), route: `/monitors/${monitor.id}` });
    await second.until(() => second.remote.snapshot !== null, 'the tray');
    await second.remote.stop();

    const third = connect(agent, key, 'read-only', { saved });
    await third.until(() => third.remote.snapshot !== null, 'the first look of the third start');
    expect(third.popups).toEqual([]);
  });

  it('stops and says so when the key is revoked', async () => {
    const { agent } = await agentWithMonitor();
    const { id, token } = agent.store.apiTokens.create({ companyId: 1, name: 'desk', now: Date.now() });
    agent.store.apiTokens.revoke(id, Date.now());
    const { remote, popups, until } = connect(agent, token, 'full');
    await until(() => remote.status.refused !== null, 'the refusal');
    // A grey icon alone is easily missed for days, and no alert from that agent would come meanwhile.
    expect(popups).toEqual([
      {
        title: 'Cronbeat on 127.0.0.1: the key was refused',
        body: 'Alerts from it no longer reach this computer. Connect again with a key it takes, in Settings.',
        route: '/settings',
      },
    ]);
    expect(remote.status.refused).toMatch(/refused the key \(401/);
    expect(remote.status.refusedStatus).toBe(401);
    expect(remoteTrayModel({ name: remote.name, snapshot: remote.snapshot, ...remote.status }, () => '').tooltip).toBe('Cronbeat on 127.0.0.1: the key was refused');
  });
});

describe("an agent served under a proxy's sub-path", () => {
  it('is checked, followed and read there: popups, tray and pauses', async () => {
    const { agent, monitor } = await agentWithMonitor();
    const url = `${await inFrontOf(agent, {
      intercept: (request, response) => !request.url!.startsWith('/cronbeat/') && Boolean(response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Another site</h1>')),
      pathOf: (url) => url.slice('/cronbeat'.length),
    })}/cronbeat`;
    const key = keyOf(agent, 'full');
    expect(connectRequest({ url: `${url}/#/settings`, key })).toEqual({ ok: true, url, key });
    expect(await checkAgent(url, key)).toEqual({ ok: true, access: 'full' });
    const { remote, popups, until } = connect(agent, key, 'full', { url });
    await until(() => remote.snapshot !== null, 'the first snapshot');
    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`, { method: 'POST' })).status).toBe(200);
    await until(() => popups.length === 1 && remote.snapshot!.monitors[0].status === 'failed', 'the popup and the red tray');
    await remote.pause(monitor.id, null);
    await until(() => remote.snapshot!.monitors[0].status === 'paused', 'the monitor paused');
  });
});

describe('checking an agent before connecting', () => {
  it('says in words what is wrong with a certificate this computer does not trust, once', async () => {
    const tls = await startTlsServer(makeLeaf());
    try {
      expect(await checkAgent(`https://127.0.0.1:${tls.port}`, 'cb_key')).toEqual({
        ok: false,
        message: `Cannot reach https://127.0.0.1:${tls.port} (TLS: the agent showed a self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT); trust its authority with NODE_EXTRA_CA_CERTS=/path/ca.pem, or fix the URL).`,
      });
    } finally {
      await tls.close();
    }
  });

  it('says where an address redirects to (a proxy sending http to https), and never follows it with the key', async () => {
    const asked: string[] = [];
    const front = createServer((request, response) => {
      asked.push(`${request.url} ${request.headers.authorization ?? ''}`.trim());
      response.writeHead(301, { location: `https://backup-box.example${request.url}` }).end();
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(front.address() as { port: number }).port}`;
      expect(await checkAgent(url, 'cb_key')).toEqual({
        ok: false,
        message: `${url} redirects to https://backup-box.example/api/health (301): if that is the agent, connect to https://backup-box.example.`,
      });
      expect(asked).toEqual(['/api/health']);
    } finally {
      front.close();
    }
  });

  it('tells a full key from a read-only one, and refuses ping keys, wrong keys and what is not an agent', async () => {
    const { agent } = await agentWithMonitor();
    expect(await checkAgent(agent.url, keyOf(agent, 'full'))).toEqual({ ok: true, access: 'full' });
    expect(await checkAgent(agent.url, keyOf(agent, 'read-only'))).toEqual({ ok: true, access: 'read-only' });
    expect(await checkAgent(agent.url, keyOf(agent, 'ping'))).toEqual({ ok: false, message: expect.stringMatching(/ping or badge key\). Use a read-only or full key/) });
    expect(await checkAgent(agent.url, 'cb_wrong')).toEqual({ ok: false, message: expect.stringMatching(/refused this key/) });
    const closed = `http://127.0.0.1:${await closedPort()}`;
    expect(await checkAgent(closed, 'cb_x')).toEqual({ ok: false, message: expect.stringMatching(/^Cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)\.$/) });
  });

  it("asks the key's session, and of an agent too old to say its scope, whether it may list the keys", async () => {
    const asked: string[] = [];
    const older = createServer((request, response) => {
      asked.push(request.url!);
      const full = request.headers.authorization === 'Bearer cb_full';
      response.setHeader('content-type', 'application/json');
      if (request.url === '/api/health') return response.end(JSON.stringify({ status: 'ok' }));
      if (request.url === '/api/session') return response.end(JSON.stringify({ company_id: 1, token_id: 2, kind: 'api_token' }));
      if (request.url === '/api/keys' && full) return response.end('[]');
      response.statusCode = 403;
      response.end(JSON.stringify({ message: 'A read-only key may only read (GET); this needs a full key.' }));
    });
    await new Promise<void>((resolve) => older.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(older.address() as { port: number }).port}`;
      expect(await checkAgent(url, 'cb_full')).toEqual({ ok: true, access: 'full' });
      expect(await checkAgent(url, 'cb_watch')).toEqual({ ok: true, access: 'read-only' });
      expect(asked.filter((path) => path.startsWith('/api/notifications'))).toEqual([]);
    } finally {
      older.close();
    }
  });

  it('reads the health answer as JSON: a service whose own status is not ok is no agent, whatever its body mentions', async () => {
    const other = createServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ status: 'starting', checks: { database: { status: 'ok' } } }));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = other.address() as { port: number };
      expect(await checkAgent(`http://127.0.0.1:${port}`, 'cb_x')).toEqual({ ok: false, message: expect.stringMatching(/does not answer as a Cronbeat agent/) });
    } finally {
      other.close();
    }
  });
});
