import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT } from '../../agent/api/http/body';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/* Bodies over the limit, slow clients and idle connections cannot hold the agent. */

const TIMEOUTS = { headersMs: 300, requestMs: 600 };
let agent: TestAgent;
let pulsePath: string;
beforeAll(async () => {
  agent = await startTestAgent({ timeouts: TIMEOUTS });
  const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'm', timezone: 'UTC', schedule: '* * * * *', duration: 5 } })).json();
  pulsePath = `/api/pulse/${monitor.token}`;
});
afterAll(() => agent.stop());

const answers = async () => (await agent.api('/api/monitors')).status;

/** Streams a chunked body of up to `max` bytes as fast as the socket takes it; resolves with the answer and how much was sent. */
function streamBody(path: string, max: number): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const req = request(`${agent.url}${path}`, {
      method: 'POST',
      agent: false,
      headers: { Authorization: `Bearer ${agent.token}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
    });
    req.on('response', (response) => {
      answered = true;
      let body = '';
      response.setEncoding('utf8').on('data', (c) => (body += c));
      response.on('end', () => resolve({ status: response.statusCode!, body, sent }));
    });
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const pump = () => {
      while (!answered && sent < max) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

/** A connected socket; `closedAt` resolves with when the server closed it (Date.now()). */
function openSocket(): Promise<Socket & { closedAt: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(agent.port, '127.0.0.1', () => resolve(Object.assign(socket, { closedAt: closed })));
    const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now())));
    socket.on('error', reject).resume(); // flowing, so the server's FIN is seen even with nothing read
  });
}

/**
 * Resolves when the server closes `socket`. No bound of its own: a client the agent failed to cut
 * off (its timeouts are under a second) would hold on until the test's timeout, which fails it; a
 * bound of a few seconds failed on a busy machine, where closing 1,000 sockets took longer.
 */
function closedByServer(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.on('error', () => {}).resume();
    socket.once('close', () => resolve());
  });
}

describe('bodies over the limit', () => {
  it('refuses a declared length over the limit at once (413), reading none of it', async () => {
    const socket = await openSocket();
    let answer = '';
    socket.setEncoding('utf8').on('data', (c) => (answer += c));
    socket.write(`POST /api/servers HTTP/1.1\r\nHost: 127.0.0.1:${agent.port}\r\nAuthorization: Bearer ${agent.token}\r\nContent-Type: application/json\r\nContent-Length: ${50 * JSON_BODY_LIMIT}\r\n\r\n{"name":`);
    await closedByServer(socket);
    // 413, not the 408 of a body that never came: the agent did not wait to read it.
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/"message":"The request body is larger than \d+ bytes\."/);
  });

  it('refuses a chunked body once it passes the limit, without reading the rest', async () => {
    const max = 64 * JSON_BODY_LIMIT;
    const result = await streamBody('/api/servers', max);
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body).message).toMatch(/larger than/);
    expect(result.sent).toBeLessThan(max / 4); // socket buffers take some; the agent stopped reading long before 64 MB
    expect(await answers()).toBe(200);
  });
});

describe('slow clients', () => {
  it('cuts off a client that sends its headers slowly, answering others meanwhile', async () => {
    const socket = await openSocket();
    socket.write(`GET /api/monitors HTTP/1.1\r\nHost: 127.0.0.1:${agent.port}\r\n`);
    const drip = setInterval(() => socket.writable && socket.write('X-Slow: y\r\n'), 50);
    try {
      const closing = closedByServer(socket); // while it is still sending
      expect(await answers()).toBe(200);
      await closing;
    } finally {
      clearInterval(drip);
    }
  });

  it.each([['/api/servers'], ['pulse']])('cuts off a client that sends its body to %s slowly', async (target) => {
    const path = target === 'pulse' ? pulsePath : target;
    const socket = await openSocket();
    let answer = '';
    socket.setEncoding('utf8').on('data', (c) => (answer += c));
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${agent.port}\r\nAuthorization: Bearer ${agent.token}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`);
    const drip = setInterval(() => socket.writable && socket.write(' '), 50);
    try {
      const closing = closedByServer(socket); // while it is still sending
      expect(await answers()).toBe(200);
      await closing;
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toMatch(/\{"message":"The request took too long to arrive\."\}$/);
    } finally {
      clearInterval(drip);
    }
  });

  it('still answers with 1,000 idle connections open, and closes those that stay silent', async () => {
    const started = Date.now();
    const sockets = await Promise.all(Array.from({ length: 1000 }, openSocket));
    try {
      expect(await answers()).toBe(200);
      const closedAt = await Promise.all(sockets.map((socket) => socket.closedAt));
      // Each closed by the agent's header timeout (not at once): awaiting them all is the bound.
      expect(Math.min(...closedAt) - started).toBeGreaterThanOrEqual(TIMEOUTS.headersMs - 50);
      expect(await answers()).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});
