import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bareRequest, readChunks, readHead, requestText } from '../../agent/client/connection/bareRequest';
import { sendPulse } from '../../agent/client/pulses/pulses';
import { closedPort } from '../helpers/cli';

/*
 * A pulse to an http:// agent goes over a bare socket when the answer is the plain kind an agent
 * gives, and is asked again through node:http for anything else (agent/client/connection/bareRequest.ts).
 * Real sockets on 127.0.0.1: each server answers every connection with `answer`'s bytes.
 */

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

/** A server on 127.0.0.1 that reads each request's head and writes `answer(n)` for the n-th connection (null: never answers); what it read, per connection. */
async function answering(answer: (n: number) => string | null): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((socket: Socket) => {
    const n = requests.push('') - 1;
    socket.on('data', (chunk) => {
      requests[n] += chunk.toString('latin1');
      const reply = answer(n);
      if (requests[n].includes('\r\n\r\n') && reply !== null) socket.end(reply);
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const LIMITS = { maxBytes: 1024, timeoutMs: 5_000, timedOut: () => new Error('timed out') };
const ask = (url: string, limits = LIMITS) => bareRequest(new URL(`${url}/api/pulse/abc/start?rid=1`), 'POST', { 'content-type': 'text/plain', 'content-length': '3' }, Buffer.from('out'), limits);

describe('bareRequest', () => {
  it('reads an answer with a Content-Length, and writes the request as node:http does for one connection', async () => {
    const agent = await answering(() => 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Cronbeat-Monitor-Token: t1\r\nContent-Length: 2\r\n\r\nOK');
    expect(await ask(agent.url)).toEqual({ status: 200, statusText: 'OK', text: 'OK', headers: { 'content-type': 'text/plain', 'x-cronbeat-monitor-token': 't1', 'content-length': '2' } });
    const port = new URL(agent.url).port;
    expect(agent.requests).toEqual([`POST /api/pulse/abc/start?rid=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: text/plain\r\ncontent-length: 3\r\nConnection: close\r\n\r\nout`]);
  });

  it('reads a chunked answer, its text whole (as node:http answers res.end after writeHead)', async () => {
    const agent = await answering(() => 'HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nunkno\r\n8\r\nwn token\r\n0\r\n\r\n');
    expect(await ask(agent.url)).toMatchObject({ status: 404, statusText: 'Not Found', text: 'unknown token' });
  });

  it("leaves node:http to ask again whatever is not the plain kind: no HTTP, a 1xx, a header twice, trailers, no length, too long, closed early", async () => {
    for (const answer of [
      'SSH-2.0-OpenSSH_9.6\r\n\r\n',
      'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nOK',
      'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nOK',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nOK\r\n0\r\nX-Sum: 1\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nOK',
      `HTTP/1.1 200 OK\r\nContent-Length: 2000\r\n\r\n${'x'.repeat(2000)}`,
      'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nOK',
    ]) {
      const agent = await answering(() => answer);
      expect(await ask(agent.url), JSON.stringify(answer)).toBe('again');
    }
  });

  it('leaves to node:http, which refuses them, a control character in a header or chunk extension and a head over 16 KB in one piece', async () => {
    for (const answer of [
      'HTTP/1.1 200 OK\r\nX-Note: a\x00b\r\nContent-Length: 2\r\n\r\nOK',
      'HTTP/1.1 200 OK\r\nContent-Type: text/html\x01\r\nContent-Length: 2\r\n\r\nOK',
      'HTTP/1.1 302 Found\r\nLocation: https://x.test/\x1b[2J\r\nContent-Length: 0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nX-Note: a\x7fb\r\nContent-Length: 2\r\n\r\nOK',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2;a=\x01\r\nOK\r\n0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2; a=b\r\nOK\r\n0\r\n\r\n',
      `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\nOK`,
    ]) {
      const agent = await answering(() => answer);
      expect(await ask(agent.url), JSON.stringify(answer.slice(0, 80))).toBe('again');
    }
  });

  it('reads no body after a 204 or 304, whatever its headers say, as node:http does', async () => {
    for (const answer of ['HTTP/1.1 204 No Content\r\n\r\n', 'HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\n\r\n', 'HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n']) {
      const agent = await answering(() => answer);
      expect(await ask(agent.url), JSON.stringify(answer)).toMatchObject({ text: '' });
    }
    const bodied = await answering(() => 'HTTP/1.1 204 No Content\r\nContent-Length: 2\r\n\r\nOK');
    expect(await ask(bodied.url)).toBe('again');
  });

  it('fails as node:http does where no connection can be made, and past its time', async () => {
    await expect(ask(`http://127.0.0.1:${await closedPort()}`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const silent = await answering(() => null);
    await expect(ask(silent.url, { ...LIMITS, timeoutMs: 50 })).rejects.toThrow('timed out');
  });
});

describe('the request and answer texts', () => {
  it('puts credentials of the URL in Basic auth, and leaves a line it cannot write plainly to node:http', () => {
    const text = requestText(new URL('http://ann:p%40ss@agent.test:8787/api/pulse/a'), 'POST', {});
    expect(text).toBe(`POST /api/pulse/a HTTP/1.1\r\nHost: agent.test:8787\r\nAuthorization: Basic ${Buffer.from('ann:p@ss').toString('base64')}\r\nConnection: close\r\n\r\n`);
    expect(requestText(new URL('http://agent.test/'), 'POST', { 'x-note': 'a\r\nInjected: 1' })).toBeNull();
    expect(requestText(new URL('http://agent.test/'), 'POST', { 'x-note': 'café' })).toBeNull();
    expect(requestText(new URL('http://ann:100%zz@agent.test/'), 'POST', {})).toBeNull();
    // node:http sends a password without a user name too (an agent behind a proxy's basic auth).
    expect(requestText(new URL('http://:s3cret@agent.test/'), 'POST', {})).toContain(`Authorization: Basic ${Buffer.from(':s3cret').toString('base64')}\r\n`);
  });

  it('reads a head and a chunked body', () => {
    expect(readHead('HTTP/1.0 503 Service Unavailable\r\nContent-Length: 0')).toEqual({ status: 503, statusText: 'Service Unavailable', headers: { 'content-length': '0' }, framing: { length: 0 } });
    expect(readHead('HTTP/1.1 200\r\nTransfer-Encoding: chunked')).toMatchObject({ status: 200, statusText: '', framing: 'chunked' });
    expect(readHead('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked')).toBeNull();
    expect(readChunks(Buffer.from('2\r\nOK\r\n0\r\n\r\n'))?.toString()).toBe('OK');
    expect(readChunks(Buffer.from('2\r\nOK\r\n0\r\n'))).toBe('more');
    expect(readChunks(Buffer.from('zz\r\nOK\r\n0\r\n\r\n'))).toBeNull();
    expect(readChunks(Buffer.from('2\r\nOKAY\r\n0\r\n\r\n'))).toBeNull();
    // Many chunks are node:http's to read: each arrival would read them all again.
    expect(readChunks(Buffer.from(`${'1\r\nx\r\n'.repeat(64)}0\r\n\r\n`))?.toString()).toBe('x'.repeat(64));
    expect(readChunks(Buffer.from(`${'1\r\nx\r\n'.repeat(65)}0\r\n\r\n`))).toBeNull();
  });
});

describe('a pulse to an answer node:http refuses', () => {
  it('is not counted as delivered: a header with a control character is no agent answering', async () => {
    const agent = await answering(() => 'HTTP/1.1 200 OK\r\nX-Note: a\x01b\r\nContent-Length: 2\r\n\r\nOK');
    const outcome = await sendPulse(agent.url, { tokenOrSlug: 'abc', signal: 'success', key: 'key-1', at: Date.now() }, false, []);
    expect(outcome).toMatchObject({ kind: 'unreachable', message: expect.stringContaining('HPE_INVALID_HEADER_TOKEN') });
  });
});

describe('a pulse to an answer node:http must read', () => {
  it('is asked again through node:http with the same Idempotency-Key, and counts as that answer', async () => {
    const keys: string[] = [];
    const server = createHttpServer((request, response) => {
      keys.push(String(request.headers['idempotency-key']));
      // A head and a body node:http reads, and bareRequest leaves: a trailer after the last chunk.
      response.writeHead(200, { 'content-type': 'text/plain', trailer: 'x-sum' });
      response.addTrailers({ 'x-sum': '1' });
      response.end('OK');
    });
    servers.push(server as unknown as Server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const outcome = await sendPulse(url, { tokenOrSlug: 'abc', signal: 'start', key: 'key-1', at: Date.now() });
    expect(outcome).toMatchObject({ kind: 'ok', status: 200, text: 'OK' });
    expect(keys).toEqual(['key-1', 'key-1']);
  });
});
