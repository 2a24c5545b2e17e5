import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli, tempFolder } from '../helpers/cli';

vi.setConfig({ testTimeout: 30_000 });

/*
 * Agents other than today's: one from before POST /api/servers/heartbeat (its 404 is "no such
 * route"), and one whose words for an unknown server differ. What the watcher decides at start
 * must come from data (which request failed, the servers the agent lists), not from the words.
 */

let server: Server | null = null;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A real HTTP agent stand-in: heartbeat answers 404 with `heartbeatMessage` (200 for null); the servers list holds `identifiers`; an alert gets `alertStatus`. */
async function agentWithout(heartbeatMessage: string | null, identifiers: string[], alertStatus = 201): Promise<string> {
  server = createServer((request, response) => {
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    request.resume();
    const path = request.url!.split('?')[0];
    if (request.method === 'POST' && path === '/api/servers/heartbeat') return heartbeatMessage === null ? json(200, {}) : json(404, { message: heartbeatMessage });
    if (request.method === 'GET' && path === '/api/servers') return json(200, identifiers.map((identifier, index) => ({ id: index + 1, name: identifier, identifier, ip_address: '10.0.0.1' })));
    if (request.method === 'POST' && path === '/api/servers/alert') return json(alertStatus, alertStatus === 404 ? { message: 'Gone.' } : { id: 1 });
    return json(404, { message: 'Not found.' });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

function watchOnce(url: string, identifier: string, folder = tempFolder(), crontab = '0 1 * * * /a.sh\n') {
  const file = join(folder, 'crontab');
  writeFileSync(file, crontab);
  return runCli(['crontab', 'watch', '--server', identifier, '--once', '--file', file], {
    env: { CRONBEAT_URL: url, CRONBEAT_API_TOKEN: 'token', CRONBEAT_DATA_DIR: folder },
  });
}

describe('crontab watch at start, against an agent without reports', () => {
  it('watches with a warning when the agent has the server but takes no reports (an older agent)', async () => {
    const url = await agentWithout('Not found.', ['web-1']);
    const result = await watchOnce(url, 'web-1');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/warning: the agent at .* takes no reports \(an older version\?\)/);
    expect(result.stdout).toMatch(/watching 1 cron job/);
  });

  it('stops with exit 2 when the agent lists no server with the identifier, whatever its 404 says', async () => {
    const url = await agentWithout('Unknown server.', ['web-1']);
    const result = await watchOnce(url, 'web-9');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`cronbeat: No server has the identifier "web-9" at ${url}: add it in the dashboard (Servers → Add server) or check --server.\n`);
  });

  it('says the server may be gone when an alert gets 404 after the start check passed', async () => {
    const url = await agentWithout(null, ['web-1'], 404);
    const folder = tempFolder();
    expect((await watchOnce(url, 'web-1', folder)).status).toBe(0);
    const result = await watchOnce(url, 'web-1', folder, '0 1 * * * /a.sh\n0 2 * * * /b.sh\n');
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`cronbeat: POST /api/servers/alert failed: 404 Gone. (is there a server with identifier "web-1"? create it with POST /api/servers)\n`);
  });
});
