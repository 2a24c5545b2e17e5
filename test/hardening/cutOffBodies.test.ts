import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../agent/db/store';
import { readPulseBody } from '../../agent/api/pulses/pulseRequest';
import type { LogFields } from '../../agent/log/logger';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { until } from '../helpers/until';

/*
 * A client that goes away in the middle of its body (a job killed while it posts its output, a
 * watcher's network dropping) sent the agent nothing it could act on. That is the client's doing,
 * not a bug: the agent logs no "Internal error" with a stack for it, and changes nothing (a job's
 * line cut off before its body is complete makes no monitor and re-schedules none).
 */

let agent: TestAgent;
const lines: Array<{ text: string; fields?: LogFields }> = [];
afterAll(() => agent && rmSync(agent.dataDir, { recursive: true, force: true }));

/**
 * Sends a request's head and the start of its body, waits for the agent's "100 Continue" (it has
 * taken the request and is reading the body), then drops the connection.
 */
function cutOff(path: string, method: string, headers: Record<string, string>, bodyStart: string): Promise<void> {
  const { hostname, port } = new URL(agent.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const head = Object.entries({ Host: `${hostname}:${port}`, 'Content-Length': '10000', Expect: '100-continue', ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
      socket.write(`${method} ${path} HTTP/1.1\r\n${head.join('')}\r\n`);
    });
    socket.once('data', (answer) => {
      expect(answer.toString()).toMatch(/^HTTP\/1\.1 100 Continue/);
      socket.write(bodyStart);
      socket.destroy();
      resolve();
    });
    socket.on('error', reject);
  });
}

describe('a request whose body is cut off', () => {
  it('is no internal error on any door, and changes nothing', async () => {
    agent = await startTestAgent({ log: (text, fields) => lines.push({ text, fields }) });
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })).json();
    const ping = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now: Date.now() }).token;
    expect((await fetch(`${agent.url}/api/pulse/key/${ping}/nightly?create=1&schedule=0+4+*+*+*`)).status).toBe(201);
    const json = { Authorization: `Bearer ${agent.token}`, 'Content-Type': 'application/json' };
    // Only Koa's door takes a token whose first character is percent-encoded (plainPulses.ts).
    const throughKoa = `%${monitor.token.charCodeAt(0).toString(16)}${monitor.token.slice(1)}`;

    await cutOff(`/api/monitors/${monitor.id}`, 'PATCH', json, '{"name": "renamed", "schedule": ');
    await cutOff('/api/servers/heartbeat', 'POST', json, '{"server_id": ');
    await cutOff(`/api/pulse/${monitor.token}/fail`, 'POST', {}, 'the job printed this, then was killed');
    await cutOff(`/api/pulse/${throughKoa}/fail`, 'POST', {}, 'the job printed this, then was killed');
    await cutOff(`/api/pulse/key/${ping}/cut-off-job?create=1&schedule=0+5+*+*+*`, 'POST', {}, 'output');
    await cutOff(`/api/pulse/key/${ping}/nightly/fail?schedule=0+0+1+1+*&grace=525600`, 'POST', {}, 'output');
    // Stopping waits for every connection to close, and so for what the agent did with each.
    await agent.close();

    expect(lines.filter((line) => line.fields?.level === 'error' || /Internal error/.test(line.text))).toEqual([]);
    const store = openStore(join(agent.dataDir, 'cronbeat.db'), Date.now());
    try {
      const monitors = store.monitors.list(1);
      expect(monitors.map((m) => [m.name, m.schedule, m.is_alerted])).toEqual([
        ['backup', '0 3 * * *', 0],
        ['nightly', '0 4 * * *', 0],
      ]);
      expect(store.pulses.count(monitor.id)).toBe(0);
    } finally {
      store.close();
    }
  });
});

describe('a compressed pulse body cut off', () => {
  it('ends the reading of it (it waited for ever, holding its inflater and what it had read, for any client that asked)', async () => {
    const outcomes: string[] = [];
    const server = createServer((request) => {
      readPulseBody(request).then(
        () => outcomes.push('read'),
        (error: NodeJS.ErrnoException) => outcomes.push(`refused: ${error.code} ${error.message}`),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      // Output that does not compress to a few bytes, so that 100 bytes of it are a body cut off.
      const output = Buffer.from(randomBytes(100_000).toString('hex'));
      for (const [coding, body] of [['gzip', gzipSync(output)], ['deflate', deflateSync(output)], ['br', brotliCompressSync(output)]] as const) {
        await new Promise<void>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1', () => {
            socket.write(`POST /api/pulse/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Encoding: ${coding}\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`);
          });
          socket.once('data', () => {
            socket.write(body.subarray(0, 100));
            socket.destroy();
            resolve();
          });
          socket.on('error', reject);
        });
      }
      await until(() => outcomes.length === 3, 'each reading to end');
      // Refused as Node refuses a plain body cut off (a 400 for no one), never kept as a pulse.
      expect(outcomes).toEqual(['refused: ECONNRESET aborted', 'refused: ECONNRESET aborted', 'refused: ECONNRESET aborted']);
    } finally {
      server.close();
    }
  });
});
