import type { Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { startSilentServer, type RunningServer } from '../engine/certificates/tls-fixtures';

let agent: TestAgent;
let silent: RunningServer;
let connected: Promise<Socket>;

beforeAll(async () => {
  // The check's own timeout is far away, so the host holds the check until the test lets it go:
  // with a short one, a busy machine ran it out before the requests in between were answered.
  // (The timeout's own words are checker.test.ts's.)
  agent = await startTestAgent({ certificateChecks: { timeoutMs: 60_000 } });
  let onConnection!: (socket: Socket) => void;
  connected = new Promise((resolve) => (onConnection = resolve));
  silent = await startSilentServer(onConnection);
});

afterAll(async () => {
  await agent.stop();
  await silent.close();
});

it('keeps answering while a host that never speaks TLS holds its check', async () => {
  let settled = false;
  const adding = agent
    .api('/api/ssl-certificates', { method: 'POST', json: { hostname: '127.0.0.1', port: silent.port } })
    .finally(() => (settled = true));
  const socket = await connected; // the check is under way
  const list = await agent.api('/api/ssl-certificates');
  expect(list.status).toBe(200);
  const [pending] = await list.json();
  expect(pending).toMatchObject({ status: 'pending', last_checked_at: null });
  expect((await agent.api('/api/monitors')).status).toBe(200);
  expect(settled).toBe(false);

  socket.destroy(); // the host hangs up without a word of TLS
  const added = await adding;
  expect(added.status).toBe(201);
  // Closed or reset: which one the client sees depends on what it was writing when the host hung up.
  expect(await added.json()).toMatchObject({ status: 'unreachable', last_error: expect.stringMatching(/^Connection (closed|reset)/) });
});
