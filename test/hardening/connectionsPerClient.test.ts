import { connect, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONNECTIONS_PER_CLIENT } from '../../agent/api/http/connectionCaps';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * One other machine, with no key, cannot take the agent's file descriptors: past
 * MAX_CONNECTIONS_PER_CLIENT open connections its next one is closed before a byte is read,
 * while pulses from elsewhere are answered, and a connection it closes makes room. Real agent on
 * 0.0.0.0, real sockets from this machine's own non-loopback address (loopback is never capped).
 */

const address = Object.values(networkInterfaces()).flat().find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;

let agent: TestAgent;
let port: number;
let pulseUrl: string;
beforeAll(async () => {
  // Long timeouts, so the held connections are not cut by the headers timeout on a slow machine.
  agent = await startTestAgent({ host: '0.0.0.0', timeouts: { headersMs: 120_000, requestMs: 120_000 } });
  port = Number(new URL(agent.url).port);
  const local = `http://127.0.0.1:${port}`;
  const created = await fetch(`${local}/api/monitors`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${agent.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'backup', timezone: 'UTC', schedule: '0 * * * *', duration: 5 }),
  });
  pulseUrl = `${local}/api/pulse/${(await created.json()).token}`;
});
afterAll(() => agent.stop());

/** A connection from `address` that says nothing. */
const silent = () => new Promise<Socket>((resolve, reject) => connect(port, address!).once('connect', function (this: Socket) { resolve(this); }).once('error', reject));

/** What GET /api/health on a new connection from `address` gets: its status line, or "closed" when the agent closed it unanswered. */
function health(): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, address!, () => socket.write(`GET /api/health HTTP/1.1\r\nHost: ${address}:${port}\r\nConnection: close\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve(text.split('\r\n')[0] || 'closed'));
  });
}

const pulseStatus = async () => (await fetch(pulseUrl, { method: 'POST' })).status;

describe.skipIf(!address)('connections one other machine may hold', () => {
  it(`closes a machine's connection past ${MAX_CONNECTIONS_PER_CLIENT} unanswered, answers pulses meanwhile, and takes one again once another closes`, async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS_PER_CLIENT }, silent));
    expect(await health()).toBe('closed');
    expect(await pulseStatus()).toBe(200);

    held.shift()!.destroy();
    await expect.poll(health).toBe('HTTP/1.1 200 OK');
    expect(await pulseStatus()).toBe(200);
    for (const socket of held) socket.destroy();
  });
});
