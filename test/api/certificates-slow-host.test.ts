import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { startSilentServer, type RunningServer } from '../engine/certificates/tls-fixtures';

let agent: TestAgent;
let silent: RunningServer;

beforeAll(async () => {
  agent = await startTestAgent({ certificateChecks: { timeoutMs: 1500 } });
  silent = await startSilentServer();
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
  await new Promise((resolve) => setTimeout(resolve, 100)); // the check is under way
  const list = await agent.api('/api/ssl-certificates');
  expect(list.status).toBe(200);
  const [pending] = await list.json();
  expect(pending).toMatchObject({ status: 'pending', last_checked_at: null });
  expect((await agent.api('/api/monitors')).status).toBe(200);
  expect(settled).toBe(false);

  const added = await adding;
  expect(added.status).toBe(201);
  expect(await added.json()).toMatchObject({
    status: 'unreachable',
    last_error: 'No TLS handshake within 1.5 s (not a TLS server?)',
  });
});
