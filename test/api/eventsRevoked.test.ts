import { get, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInLink } from '../helpers/signIn';
import { HEARTBEAT_MS, KEY_CHECK_MS } from '../../agent/api/routes/events';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli } from '../helpers/cli';

/*
 * A key revoked while its live stream is open must stop receiving at once: the stream ends before
 * the next event, whoever revoked it (the keys API, a dashboard signing out, another process
 * writing the database, as `cronbeat token revoke` does beside a running agent).
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

/** A live stream over real HTTP: everything it received, and a promise of its end. */
async function openStream(token: string) {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    get(`${agent.url}/api/events`, { headers: { Authorization: `Bearer ${token}` } }, resolve).on('error', reject);
  });
  expect(response.statusCode).toBe(200);
  response.setEncoding('utf8');
  let text = '';
  let waiters: Array<{ wanted: string; resolve: () => void }> = [];
  /** Resolves once the stream has received `wanted`. */
  const receives = (wanted: string) => new Promise<void>((resolve) => (text.includes(wanted) ? resolve() : waiters.push({ wanted, resolve })));
  response.on('data', (chunk: string) => {
    text += chunk;
    waiters = waiters.filter((w) => (text.includes(w.wanted) ? (w.resolve(), false) : true));
  });
  const ended = new Promise<void>((resolve) => response.on('end', resolve).on('close', resolve));
  await receives('"ready"');
  return { ended, receives, received: () => text };
}

const key = (scope: 'full' | 'read-only' = 'read-only') => agent.store.apiTokens.create({ companyId: 1, name: `watcher ${scope}`, scope, now: Date.now() });

describe('a revoked key\'s /api/events stream', () => {
  it('ends at once when the key is revoked through the API, and never gets another event', async () => {
    const { id, token } = key();
    const stream = await openStream(token);
    agent.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: 101 });
    expect((await agent.api(`/api/keys/${id}`, { method: 'DELETE' })).status).toBe(204);
    agent.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: 102 });
    await stream.ended; // well before the 15 s heartbeat: the test's own timeout is 5 s
    expect(stream.received()).toContain('"monitorId":101');
    expect(stream.received()).not.toContain('"monitorId":102');
    expect(stream.received()).not.toContain('key.revoked');
    expect((await agent.api('/api/events', { token })).status).toBe(401);
  });

  it('ends at once when the dashboard session signs out', async () => {
    const code = new URL(createSignInLink(agent.store, agent.url, Date.now()).replace('#/sign-in', 'sign-in')).searchParams.get('code');
    const session = await (await fetch(`${agent.url}/api/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) })).json();
    const stream = await openStream(session.token);
    expect((await agent.api('/api/session', { method: 'DELETE', token: session.token })).status).toBe(204);
    agent.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: 201 });
    await stream.ended;
    expect(stream.received()).not.toContain('"monitorId":201');
  });

  it('ends before the next event when the key was revoked behind the agent\'s back (another process writing the database)', async () => {
    const { id, token } = key('full');
    const stream = await openStream(token);
    agent.store.apiTokens.revoke(id, Date.now()); // what `cronbeat token revoke` does: no event reaches this agent
    agent.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: 301 });
    await stream.ended;
    expect(stream.received()).not.toContain('"monitorId":301');
  });

  it('ends before the next event when `cronbeat token revoke` (a real child process) revoked the key beside the agent', async () => {
    const { id, token } = key();
    const stream = await openStream(token);
    const revoked = await runCli(['token', 'revoke', String(id), '--data-dir', agent.dataDir]);
    expect(revoked.status, revoked.stderr).toBe(0);
    agent.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: 351 });
    await stream.ended;
    expect(stream.received()).not.toContain('"monitorId":351');
  }, 30_000);

  it('ends within about a second, not at the 15 s heartbeat, when `cronbeat token revoke` revoked the key of an idle stream', async () => {
    const { id, token } = key();
    const openedAt = Date.now();
    const stream = await openStream(token);
    expect((await runCli(['token', 'revoke', String(id), '--data-dir', agent.dataDir])).status).toBe(0);
    await stream.ended;
    // Ended by the key check, not by the first heartbeat (HEARTBEAT_MS after the stream opened).
    expect(KEY_CHECK_MS).toBeLessThan(HEARTBEAT_MS / 10);
    expect(Date.now() - openedAt).toBeLessThan(HEARTBEAT_MS);
  }, 30_000);

  it("leaves every other key's stream open and fed", async () => {
    const doomed = key();
    const kept = await openStream(key().token);
    const other = await openStream(doomed.token);
    expect((await agent.api(`/api/keys/${doomed.id}`, { method: 'DELETE' })).status).toBe(204);
    await other.ended;
    agent.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: 401 });
    await kept.receives('"monitorId":401');
    expect(kept.received()).not.toContain('key.revoked');
  });
});
