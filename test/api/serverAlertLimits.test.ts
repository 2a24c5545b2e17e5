import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINE_CREATIONS_PER_MINUTE } from '../../agent/domain/monitors/lineLimits';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A watcher's key is a ping key, the key on every server, the one most easily stolen. Its crontab
 * alerts are each stored with a notification and a delivery to each channel: without a bound, one
 * stolen key wrote 2,000 alerts of 9 KB (100 MB) in 10 s, and would fill the disk within the hour,
 * after which no pulse of any monitor could be stored. So a key may post 30 alerts a minute (a
 * bucket refilled one every 2 s, as for the monitors its lines make); past it, 429 with
 * Retry-After, which the watcher keeps and sends again (a crontab rewritten whole is told within
 * minutes).
 */

let agent: TestAgent;
const clock = { now: Date.parse('2026-11-28T10:00:00Z') };
let ping: string;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => clock.now });
  ping = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now: clock.now }).token;
  expect((await agent.api('/api/servers', { method: 'POST', json: { name: 'web 1', ip_address: '10.0.0.7', identifier: 'web-1' } })).status).toBe(201);
});
afterAll(() => agent.stop());

const alert = (n: number) => ({ username: 'root', server_id: 'web-1', command: `0 3 * * * /usr/local/bin/job-${n}`, change: 'added' });
const send = (key: string, n: number, idempotencyKey = `alert-${n}`) =>
  agent.api('/api/servers/alert', { method: 'POST', token: key, json: alert(n), headers: { 'Idempotency-Key': idempotencyKey } });
const stored = () => agent.store.db.prepare('SELECT count(*) FROM server_alerts').pluck().get() as number;
const told = () => agent.store.db.prepare("SELECT count(*) FROM notifications WHERE type LIKE '%ServerAlert%'").pluck().get() as number;

describe("a key's server alerts", () => {
  it('are 30 a minute at most: past it 429 with Retry-After, nothing stored; retries and other keys are not held', async () => {
    for (let n = 0; n < LINE_CREATIONS_PER_MINUTE; n++) expect((await send(ping, n)).status, `alert ${n}`).toBe(201);
    const [alerts, notifications] = [stored(), told()];

    const refused = await send(ping, 100);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect((await refused.json()).message).toBe("This key's server alerts may be 30 a minute; this one was not stored. Try again in 2 s.");
    expect([stored(), told()]).toEqual([alerts, notifications]);

    // A retry of an alert stored already is answered as the first: it stores nothing, so it spends nothing.
    expect((await send(ping, 3)).status).toBe(201);
    // Another key has a budget of its own.
    expect((await send(agent.token, 101)).status).toBe(201);
    // One comes back every 2 s.
    clock.now += 2_000;
    expect((await send(ping, 100)).status).toBe(201);
    expect((await send(ping, 102)).status).toBe(429);
    expect([stored(), told()]).toEqual([alerts + 2, notifications + 2]);
  });
});
