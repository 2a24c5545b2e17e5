import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect as netConnect, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requestOnce } from '../../agent/client/connection/http';
import { readEventStream } from '../../agent/client/follow/eventStream';
import { makeLeaf, startTlsServer } from '../engine/certificates/tls-fixtures';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * Talking to an agent through the proxy the environment names (http_proxy, https_proxy,
 * no_proxy), as curl does: a real agent behind a real HTTP proxy on 127.0.0.1 that resolves the
 * agent's name itself (this machine cannot: backup-box.test is no name here), and a TLS server
 * reached through the proxy's CONNECT tunnel. Sets process.env: in OWN_PROCESS.
 */

const saved = { ...process.env };
let agent: TestAgent;
let proxy: Server;
let proxyUrl: string;
const seen: string[] = [];
/** Where the proxy sends a name: backup-box.test is the agent, tls-box.test the TLS server. */
const routes = new Map<string, number>();

beforeAll(async () => {
  agent = await startTestAgent();
  routes.set('backup-box.test', Number(new URL(agent.url).port));
  proxy = createServer((request, response) => {
    seen.push(`${request.method} ${request.url} ${request.headers['proxy-authorization'] ?? ''}`.trim());
    const target = new URL(request.url!);
    const port = routes.get(target.hostname);
    if (!port) return void response.writeHead(502).end();
    const headers = { ...request.headers, host: `127.0.0.1:${port}` };
    delete headers['proxy-authorization'];
    const forwarded = httpRequest({ host: '127.0.0.1', port, path: `${target.pathname}${target.search}`, method: request.method, headers }, (answer) => {
      response.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(response);
    });
    request.pipe(forwarded);
  });
  proxy.on('connect', (request, socket) => {
    seen.push(`CONNECT ${request.url} ${request.headers['proxy-authorization'] ?? ''}`.trim());
    const [name] = request.url!.split(':');
    const port = routes.get(name);
    if (!port || name === 'forbidden.test') return void socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const upstream = netConnect(port, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://me:pa%40ss@127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  proxy.close();
  await agent.stop();
});

afterEach(() => {
  process.env = { ...saved };
  seen.length = 0;
});

const PROXY_AUTH = `Basic ${Buffer.from('me:pa@ss').toString('base64')}`;

describe('through the proxy the environment names', () => {
  it('asks an http:// agent of the proxy in full, with the proxy\'s credentials and the agent\'s own kept apart', async () => {
    process.env.http_proxy = proxyUrl;
    const outcome = await requestOnce({ method: 'GET', url: `http://backup-box.test:8787/api/monitors`, headers: { authorization: `Bearer ${agent.token}` } });
    expect(outcome).toMatchObject({ kind: 'ok', status: 200, text: '[]' });
    expect(seen).toEqual([`GET http://backup-box.test:8787/api/monitors ${PROXY_AUTH}`]);
  });

  it('follows the live stream through it', async () => {
    process.env.http_proxy = proxyUrl;
    const stop = new AbortController();
    const events: string[] = [];
    const end = await readEventStream({
      baseUrl: 'http://backup-box.test:8787',
      token: agent.token,
      signal: stop.signal,
      onEvent: (event) => (events.push(event.type), stop.abort()),
    });
    expect(events).toEqual(['ready']);
    expect(end).toEqual({ kind: 'dropped', message: 'stopped' });
  });

  it('tunnels https:// with CONNECT, so the agent\'s certificate is still checked end to end', async () => {
    const tls = await startTlsServer(makeLeaf({ names: ['tls-box.test'] }));
    routes.set('tls-box.test', tls.port);
    try {
      process.env.https_proxy = proxyUrl;
      const outcome = await requestOnce({ method: 'GET', url: 'https://tls-box.test/api/health' });
      expect(outcome).toEqual({
        kind: 'unreachable',
        message: 'cannot reach https://tls-box.test (TLS: the agent showed a self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT); trust its authority with NODE_EXTRA_CA_CERTS=/path/ca.pem, or fix the URL)',
      });
      expect(seen).toEqual([`CONNECT tls-box.test:443 ${PROXY_AUTH}`]);
      const end = await readEventStream({ baseUrl: 'https://tls-box.test:8443', token: 't', onEvent: () => {} });
      expect(end).toMatchObject({ kind: 'dropped', lasting: true, message: expect.stringMatching(/^TLS: the agent showed a self-signed certificate/) });
    } finally {
      routes.delete('tls-box.test');
      await tls.close();
    }
  });

  it('says so when the proxy refuses the tunnel or cannot be reached', async () => {
    routes.set('forbidden.test', 1);
    process.env.HTTPS_PROXY = proxyUrl;
    const refused = await requestOnce({ method: 'GET', url: 'https://forbidden.test/api/health' });
    expect(refused).toEqual({ kind: 'unreachable', message: `cannot reach https://forbidden.test (the proxy 127.0.0.1:${new URL(proxyUrl).port} refused a tunnel to forbidden.test:443: HTTP/1.1 403 Forbidden)` });
    process.env.HTTPS_PROXY = 'http://127.0.0.1:9';
    const closed = await requestOnce({ method: 'GET', url: 'https://forbidden.test/api/health' });
    expect(closed).toEqual({ kind: 'unreachable', message: 'cannot reach https://forbidden.test (cannot reach the proxy 127.0.0.1:9 (ECONNREFUSED))' });
  });

  it('goes straight to this machine, and to the hosts no_proxy names', async () => {
    process.env.http_proxy = 'http://127.0.0.1:9';
    const local = await requestOnce({ method: 'GET', url: `${agent.url}/api/monitors`, headers: { authorization: `Bearer ${agent.token}` } });
    expect(local).toMatchObject({ kind: 'ok', status: 200 });
    process.env.http_proxy = proxyUrl;
    process.env.no_proxy = 'backup-box.test';
    const skipped = await requestOnce({ method: 'GET', url: 'http://backup-box.test:8787/api/monitors' });
    expect(skipped.kind === 'unreachable' && skipped.message).toMatch(/^cannot reach http:\/\/backup-box\.test:8787 \((ENOTFOUND|EAI_AGAIN)\)$/);
    expect(seen).toEqual([]);
  });
});
