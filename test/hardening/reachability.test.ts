import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../helpers/cli';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';
import { rawExchange, rawRequest } from './rawRequest';

/* Nothing reachable that should not be: DNS rebinding (Host), CORS. */

let agent: TestAgent;
let pulseUrl: string;
beforeAll(async () => {
  agent = await startTestAgent();
  const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'm', timezone: 'UTC', schedule: '* * * * *', duration: 5 } })).json();
  pulseUrl = `/api/pulse/${monitor.token}`;
});
afterAll(() => agent.stop());

const withHost = (path: string, host: string, extra: Record<string, string> = {}) =>
  rawRequest(`${agent.url}${path}`, { headers: { Host: host, Authorization: `Bearer ${agent.token}`, ...extra } });

describe('DNS rebinding guard', () => {
  it.each(['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]'])('answers Host %s with the right port', async (name) => {
    const response = await withHost('/api/monitors', `${name}:${agent.port}`);
    expect(response.status).toBe(200);
  });

  it.each([
    ['a hostile domain rebound to 127.0.0.1', (port: number) => `evil.example:${port}`],
    ['a hostile domain without port', () => 'evil.example'],
    ['localhost on another port', (port: number) => `localhost:${port + 1}`],
    ['127.0.0.1 without port (port 80)', () => '127.0.0.1'],
    ['a subdomain of localhost-looking name', (port: number) => `localhost.evil.example:${port}`],
    ['another loopback address', (port: number) => `127.0.0.2:${port}`],
    ['garbage', () => 'a b c'],
  ])('refuses %s with 421 JSON, before authentication or routing', async (_label, host) => {
    for (const path of ['/api/monitors', '/api/servers/1', '/api/notifications', '/', '/api/nothing-here']) {
      const response = await withHost(path, host(agent.port));
      expect(response.status, path).toBe(421);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json().message).toMatch(/does not answer to the host/);
    }
  });

  it('says how to answer to a name it refuses, for someone who typed it (another machine, a proxy) rather than a hostile page', async () => {
    const response = await withHost('/', `nas.lan:${agent.port}`);
    expect(response.status).toBe(421);
    expect(response.json().message).toBe(
      `This agent does not answer to the host "nas.lan:${agent.port}". Use http://127.0.0.1:${agent.port} or http://localhost:${agent.port} on this machine; ` +
        'to reach it as nas.lan (from other machines, or through a reverse proxy), start it with --allow-host nas.lan.',
    );
    // A name no flag could allow is not suggested.
    expect((await withHost('/', 'a b c')).json().message).toBe(`This agent does not answer to the host "a b c". Use http://127.0.0.1:${agent.port} or http://localhost:${agent.port} on this machine.`);
  });

  it('refuses a request without Host (HTTP/1.0) with 421', async () => {
    const answer = await rawExchange(agent.port, `GET /api/monitors HTTP/1.0\r\nAuthorization: Bearer ${agent.token}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 421 /);
    expect(answer).toMatch(/does not answer to the host/);
  });

  it('lets pulses through whatever the Host, since jobs on other machines may use any name', async () => {
    const response = await withHost(pulseUrl, 'cronbeat.internal.example:8787');
    expect(response.status).toBe(200);
    expect(response.text).toBe('OK');
  });

  it('answers to the names given with --allow-host, and to no other', async () => {
    const named = await startServe(['--data-dir', tempDir(), '--allow-host', 'Cronbeat.LAN', '--allow-host', 'monitor.example.com.']);
    try {
      const port = new URL(named.url).port;
      const status = async (host: string) => (await rawRequest(`${named.url}/api/monitors`, { headers: { Host: host } })).status;
      expect(await status(`cronbeat.lan:${port}`)).toBe(401); // reached: only the token is missing
      expect(await status(`monitor.example.com:${port}`)).toBe(401);
      expect(await status(`evil.example:${port}`)).toBe(421);
      expect(await status(`cronbeat.lan:${Number(port) + 1}`)).toBe(421);
      // A proxy in front sends its own port: the refusal says what that takes, not to use 127.0.0.1.
      const proxied = await rawRequest(`${named.url}/`, { headers: { Host: 'cronbeat.lan' } });
      expect(proxied.json().message).toBe(
        `This agent answers to "cronbeat.lan" only at port ${port}, the one it listens on. Behind a reverse proxy, which sends its own port, start it with --trust-proxy too.`,
      );
    } finally {
      await named.stop();
    }
  });

  it('when bound to all interfaces, answers to the address the connection arrived on', async () => {
    const wide = await startTestAgent({ host: '0.0.0.0' });
    try {
      const url = `http://127.0.0.1:${wide.port}/api/monitors`;
      const headers = { Authorization: `Bearer ${wide.token}` };
      expect((await rawRequest(url, { headers: { ...headers, Host: `127.0.0.1:${wide.port}` } })).status).toBe(200);
      expect((await rawRequest(url, { headers: { ...headers, Host: `evil.example:${wide.port}` } })).status).toBe(421);
    } finally {
      await wide.stop();
    }
  });
});

describe('CORS', () => {
  const apiPaths = ['/api/monitors', '/api/monitors/1', '/api/monitors/1/pulses', '/api/servers', '/api/servers/alert', '/api/notifications', '/api/session', '/api/events'];

  it('sends no CORS header on the API, whatever the Origin', async () => {
    for (const path of apiPaths) {
      const response = await rawRequest(`${agent.url}${path}`, {
        headers: { Authorization: `Bearer ${agent.token}`, Origin: 'https://evil.example' },
        headersOnly: path === '/api/events', // a stream that never ends
      });
      expect(response.status, path).toBeLessThan(500);
      const corsHeaders = Object.keys(response.headers).filter((name) => name.startsWith('access-control-'));
      expect(corsHeaders, path).toEqual([]);
    }
  });

  it('refuses preflights on the API with 403 and no CORS header', async () => {
    for (const path of apiPaths) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const response = await rawRequest(`${agent.url}${path}`, {
          method: 'OPTIONS',
          headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'authorization' },
        });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(response.json().message).toMatch(/Cross-origin/);
        expect(Object.keys(response.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
      }
    }
  });

  it('answers pulses from any origin, preflight included', async () => {
    const preflight = await rawRequest(`${agent.url}${pulseUrl}/start`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://status.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toMatch(/POST/);
    const pulse = await rawRequest(`${agent.url}${pulseUrl}`, { method: 'POST', headers: { Origin: 'https://status.example' }, body: 'done' });
    expect(pulse.status).toBe(200);
    expect(pulse.headers['access-control-allow-origin']).toBe('*');
    const unknown = await rawRequest(`${agent.url}/api/pulse/00000000-0000-4000-8000-000000000000`, { headers: { Origin: 'https://status.example' } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers['access-control-allow-origin']).toBe('*');
  });

  it('lets a status page on any origin read badges (the badge key in the URL is their only secret), as healthchecks.io does', async () => {
    const badgeKey = agent.store.apiTokens.create({ companyId: 1, name: 'readme', scope: 'badge', now: Date.now() }).token;
    const json = await rawRequest(`${agent.url}/api/badges/${badgeKey}/monitors/1.json`, { headers: { Origin: 'https://status.example' } });
    expect(json.status).toBe(200);
    expect(json.headers['access-control-allow-origin']).toBe('*');
    const svg = await rawRequest(`${agent.url}/api/badges/${badgeKey}/monitors/1.svg`, { headers: { Origin: 'https://status.example' } });
    expect(svg.headers['access-control-allow-origin']).toBe('*');
    const unknown = await rawRequest(`${agent.url}/api/badges/${badgeKey}/tags/nothing.json`, { headers: { Origin: 'https://status.example' } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers['access-control-allow-origin']).toBe('*');
    // Reading only: a preflight for anything but GET is refused, and nothing says credentials are welcome.
    const preflight = await rawRequest(`${agent.url}/api/badges/${badgeKey}/monitors/1.json`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://status.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    const post = await rawRequest(`${agent.url}/api/badges/${badgeKey}/monitors/1.json`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://status.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(post.status).toBe(403);
  });
});
