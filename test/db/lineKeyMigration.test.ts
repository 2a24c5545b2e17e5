import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rollBackTo } from '../helpers/rollBack';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';

/*
 * Monitors made by job lines before Cronbeat recorded which key made each: after the upgrade, the
 * lines of a company with one ping key keep pulsing their monitors; where several keys could have
 * made them, none may claim them until an admin hands each over.
 */

let agent: TestAgent | undefined;
afterEach(async () => {
  await agent?.stop();
  agent = undefined;
});

const line = (a: TestAgent, key: string, slug: string, query: Record<string, string> = {}) =>
  fetch(`${a.url}/api/pulse/key/${key}/${slug}?${new URLSearchParams(query)}`);


describe('migrating monitors made by lines before keys were recorded', () => {
  it("gives them to the company's only live ping key, and to no key where the company has several", async () => {
    const dataDir = tempDir();
    const first = await startTestAgent({ dataDir });
    const now = Date.now();
    first.tokenFor(2);
    const only = first.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now });
    const gone = first.store.apiTokens.create({ companyId: 1, name: 'old', scope: 'ping', now });
    const one = first.store.apiTokens.create({ companyId: 2, name: 'a', scope: 'ping', now });
    first.store.apiTokens.create({ companyId: 2, name: 'b', scope: 'ping', now }); // a second key: no owner to infer
    expect((await line(first, only.token, 'nightly', { create: '1', schedule: '0 3 * * *' })).status).toBe(201);
    expect((await line(first, one.token, 'hourly', { create: '1', schedule: '0 * * * *' })).status).toBe(201);
    const dashboard = await (await first.api('/api/monitors', { method: 'POST', json: { name: 'By hand', timezone: 'UTC', schedule: '0 1 * * *', duration: 20 } })).json();
    first.store.apiTokens.revoke(gone.id, now);
    await first.close();
    rollBackTo(join(dataDir, 'cronbeat.db'), 22); // the release before keys were recorded

    agent = await startTestAgent({ dataDir });
    const owner = (companyId: number, slug: string) => agent!.store.monitors.list(companyId).find((m) => m.slug === slug)!.line_key_id;
    expect(owner(1, 'nightly')).toBe(only.id);
    expect(owner(2, 'hourly')).toBeNull();
    expect(agent.store.monitors.find(1, dashboard.id)!.line_key_id).toBeNull();
    expect((await line(agent, only.token, 'nightly')).status).toBe(200);
    expect((await line(agent, one.token, 'hourly')).status).toBe(409);
    expect(owner(2, 'hourly')).toBeNull();
  });
});
