import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../../agent/agent';
import { agentBinding, desktopOrigin, DESKTOP_TOKEN_NAME, issueDesktopToken, startOnPreferredPort } from '../../main/agentHost';
import { readTraySnapshot } from '../../main/agentSnapshot';
import { trayModel } from '../../main/trayModel';

let dir: string;
let agents: RunningAgent[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cronbeat-host-'));
  agents = [];
});
afterEach(async () => {
  await Promise.all(agents.map((a) => a.close()));
  rmSync(dir, { recursive: true, force: true });
});

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

describe('starting the agent in the desktop app', () => {
  it('falls back to a free port when the preferred one is taken', async () => {
    const blocker = createServer();
    const taken = await listen(blocker, 0);
    try {
      const tried: number[] = [];
      const agent = await startOnPreferredPort((port) => {
        tried.push(port);
        return startAgent({ dataDir: dir, port: port === 8787 ? taken : port, log: () => {} });
      });
      agents.push(agent);
      expect(tried).toEqual([8787, 0]);
      expect(agent.port).not.toBe(taken);
      expect((await fetch(`${agent.url}/api/monitors`)).status).toBe(401);
    } finally {
      blocker.close();
    }
  });

  it('lets other start errors through', async () => {
    await expect(startOnPreferredPort(async () => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full');
  });

  it('issues one live desktop token that signs in to the API, revoking those left by earlier runs', async () => {
    const agent = await startAgent({ dataDir: dir, port: 0, log: () => {} });
    agents.push(agent);
    const first = issueDesktopToken(agent.store.apiTokens, Date.now());
    const second = issueDesktopToken(agent.store.apiTokens, Date.now());
    const live = agent.store.apiTokens.list().filter((t) => t.name === DESKTOP_TOKEN_NAME && t.revoked_at === null);
    expect(live.map((t) => t.id)).toEqual([second.id]);
    const asked = (token: string) => fetch(`${agent.url}/api/monitors`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await asked(second.token)).status).toBe(200);
    expect((await asked(first.token)).status).toBe(401);
  });
});

describe('the tray snapshot read from the agent', () => {
  it('shows monitors fine and failed as the store has them', async () => {
    const agent = await startAgent({ dataDir: dir, port: 0, log: () => {} });
    agents.push(agent);
    const { token } = issueDesktopToken(agent.store.apiTokens, Date.now());
    const make = async (name: string) => {
      const response = await fetch(`${agent.url}/api/monitors`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, timezone: 'UTC', schedule: '0 2 * * *', duration: 30 }),
      });
      expect(response.status).toBe(201);
      return (await response.json()) as { id: number; pulse_url: string };
    };
    // A first pulse: until then a monitor is new, and the tray counts it apart.
    expect((await fetch((await make('fine')).pulse_url)).status).toBe(200);
    const failed = await make('backup');
    // The engine's step function is tested with the engine; here only the flag the tray reads matters.
    agent.store.db.prepare('UPDATE monitors SET is_alerted = 1 WHERE id = ?').run(failed.id);
    const snapshot = readTraySnapshot(agent.store, 1, Date.now());
    expect(snapshot.monitors.map((m) => [m.name, m.status])).toEqual([
      ['fine', 'monitoring'],
      ['backup', 'failed'],
    ]);
    expect(trayModel(snapshot)).toMatchObject({ state: 'failed', failed: [{ label: 'backup', route: `/monitors/${failed.id}` }] });
  });
});

describe('the tray of the desktop app', () => {
  it('turns red for a server whose crontab watcher went quiet, and lists it; green again once it reports', async () => {
    const agent = await startAgent({ dataDir: dir, port: 0, log: () => {} });
    agents.push(agent);
    const t0 = Date.now();
    const web = agent.store.servers.create({ companyId: 1, name: 'web 1', identifier: 'web-1', ipAddress: '10.0.0.1', now: t0 });
    agent.store.servers.create({ companyId: 1, name: 'db 1', identifier: 'db-1', ipAddress: '10.0.0.2', now: t0 });
    agent.store.serverReports.record({ serverId: web.id, now: t0, intervalSeconds: 60, jobs: 3, quietAlertAt: t0 + 181_000 });

    expect(trayModel(readTraySnapshot(agent.store, 1, t0 + 60_000)).state).toBe('ok');
    const quiet = trayModel(readTraySnapshot(agent.store, 1, t0 + 200_000));
    expect(quiet.state).toBe('failed');
    expect(quiet.tooltip).toBe('Cronbeat: 1 server quiet');
    expect(quiet.failed).toEqual([{ label: 'web 1 (quiet)', route: `/servers/${web.id}` }]);

    agent.store.serverReports.record({ serverId: web.id, now: t0 + 300_000, intervalSeconds: 60, jobs: 3, quietAlertAt: t0 + 481_000 });
    expect(trayModel(readTraySnapshot(agent.store, 1, t0 + 310_000)).state).toBe('ok');
  });
});

describe("the desktop app's agent address", () => {
  it('is this machine only until the user lets servers reach it; the window always uses loopback', async () => {
    expect(agentBinding({ reachableFromServers: false, allowedHosts: [] })).toEqual({ host: '127.0.0.1', allowedHosts: [] });
    const open = agentBinding({ reachableFromServers: true, allowedHosts: ['laptop.lan'] });
    expect(open).toEqual({ host: '0.0.0.0', allowedHosts: ['laptop.lan'] });

    // The real agent with that binding answers the window's loopback origin and reports itself reachable.
    const agent = await startAgent({ dataDir: dir, port: 0, log: () => {}, ...open });
    agents.push(agent);
    const token = agent.store.apiTokens.create({ companyId: 1, name: 't', now: Date.now() }).token;
    const response = await fetch(`${desktopOrigin(agent.port)}/api/agent`, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const reach = await response.json();
    expect(reach).toMatchObject({ host: '0.0.0.0', loopback_only: false });
    expect(reach.remote_urls[0]).toBe(`http://laptop.lan:${agent.port}`);
  });
});
