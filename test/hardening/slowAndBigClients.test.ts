import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT } from '../../agent/api/body';
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

/** Resolves with how long the server took to close `socket` (or `limitMs` if it did not). */
function closedWithin(socket: Socket, limitMs: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(limitMs), limitMs);
    socket.on('error', () => {}).resume();
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

describe('bodies over the limit', () => {
  it('refuses a declared length over the limit at once (413), reading none of it', async () => {
    const socket = await openSocket();
    let answer = '';
    socket.setEncoding('utf8').on('data', (c) => (answer += c));
    socket.write(`POST /api/servers HTTP/1.1\r\nHost: 127.0.0.1:${agent.port}\r\nAuthorization: Bearer ${agent.token}\r\nContent-Type: application/json\r\nContent-Length: ${50 * JSON_BODY_LIMIT}\r\n\r\n{"name":`);
    expect(await closedWithin(socket, 2000)).toBeLessThan(2000);
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
      const closing = closedWithin(socket, 3000);
      expect(await answers()).toBe(200);
      expect(await closing).toBeLessThan(3000);
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
      const closing = closedWithin(socket, 3000);
      expect(await answers()).toBe(200);
      expect(await closing).toBeLessThan(3000);
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
      expect(Math.min(...closedAt) - started).toBeGreaterThanOrEqual(TIMEOUTS.headersMs - 50);
      expect(Math.max(...closedAt) - started).toBeLessThan(5000);
      expect(await answers()).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });
});
