import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A watcher whose alert reached the agent but whose answer was lost (the network cut, a proxy's
 * timeout) sends it again: with the same Idempotency-Key it is stored and told once, and the
 * retry gets the first one's answer.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
  expect((await agent.api('/api/servers', { method: 'POST', json: { name: 'web 1', ip_address: '10.0.0.7', identifier: 'web-1' } })).status).toBe(201);
});
afterAll(() => agent.stop());

const alertBody = { username: 'root', server_id: 'web-1', command: '0 3 * * * /usr/local/bin/backup', change: 'added' };
const send = (key: string | null, body: Record<string, unknown> = alertBody) =>
  agent.api('/api/servers/alert', { method: 'POST', json: body, headers: key === null ? {} : { 'Idempotency-Key': key } });
const stored = () => agent.store.db.prepare('SELECT count(*) FROM server_alerts').pluck().get() as number;
const told = () => agent.store.db.prepare("SELECT count(*) FROM notifications WHERE type LIKE '%ServerAlert%'").pluck().get() as number;

describe('POST /api/servers/alert with an Idempotency-Key', () => {
  it('stores and tells a retry once, and answers it as the first', async () => {
    const first = await send('3f1c9e52-alert-1');
    expect(first.status).toBe(201);
    const [alerts, notifications] = [stored(), told()];
    const again = await send('3f1c9e52-alert-1');
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(await first.json());
    expect([stored(), told()]).toEqual([alerts, notifications]);
    // Another key is another alert, even with the same words (the line changed back and again).
    expect((await send('3f1c9e52-alert-2')).status).toBe(201);
    expect([stored(), told()]).toEqual([alerts + 1, notifications + 1]);
  });

  it('refuses the key used for a different alert, naming the header, and changes nothing', async () => {
    expect((await send('key-a')).status).toBe(201);
    const [alerts, notifications] = [stored(), told()];
    const other = await send('key-a', { ...alertBody, command: '0 4 * * * /usr/local/bin/backup' });
    expect(other.status).toBe(422);
    expect(Object.keys((await other.json()).errors)).toEqual(['idempotency-key']);
    const bad = await send('a\u00e9b');
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors['idempotency-key'][0]).toMatch(/printable ASCII/);
    expect([stored(), told()]).toEqual([alerts, notifications]);
  });

  it('without a key, stores each alert sent, as before', async () => {
    const alerts = stored();
    await send(null);
    await send(null);
    expect(stored()).toBe(alerts + 2);
  });
});
