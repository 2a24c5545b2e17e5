import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIDDEN_API_KEY } from '../../agent/api/present/tokenVisibility';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * An API key written inside a text a read-only key may read (a job's output that printed its
 * environment, a crontab line reported by a server's watcher) would let that key act as the one
 * printed: a full key, or a ping key that makes monitors. So, like a pulse token, it is hidden
 * from a read-only key; a full key reads the texts as they were stored.
 */
let agent: TestAgent;
let readOnly: string;
let full: string;
let ping: string;
let monitor: { id: number; token: string };
beforeAll(async () => {
  agent = await startTestAgent();
  readOnly = agent.store.apiTokens.create({ companyId: 1, name: 'wall', scope: 'read-only', now: Date.now() }).token;
  full = agent.store.apiTokens.create({ companyId: 1, name: 'admin', scope: 'full', now: Date.now() }).token;
  ping = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now: Date.now() }).token;
  monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'env dump', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })).json();
  const failed = await fetch(`${agent.url}/api/pulse/${monitor.token}/1`, { method: 'POST', body: `CRONBEAT_API_TOKEN=${ping}\nAuthorization: Bearer ${full}\nexit 1` });
  expect(failed.status).toBe(200);
  await agent.api('/api/servers', { method: 'POST', json: { name: 'web', ip_address: '10.0.0.1', identifier: 'web-01' } });
  const alert = await agent.api('/api/servers/alert', {
    method: 'POST',
    json: { username: 'root', server_id: 'web-01', command: `CRONBEAT_API_TOKEN=${ping} cronbeat run --name backup -- backup.sh`, change: 'added' },
  });
  expect(alert.status).toBe(201);
});
afterAll(() => agent.stop());

describe('an API key inside a text', () => {
  it('is hidden from a read-only key in every text it reads, and shown to a full key as stored', async () => {
    const server = agent.store.servers.list(1)[0].id;
    for (const path of [`/api/monitors/${monitor.id}/pulses`, '/api/notifications?kinds=all', `/api/servers/${server}/alerts`]) {
      const seen = await (await agent.api(path, { token: readOnly })).text();
      expect(seen, path).not.toContain(ping);
      expect(seen, path).not.toContain(full);
      expect(seen, path).toContain(HIDDEN_API_KEY);
      const stored = await (await agent.api(path)).text();
      expect(stored, path).toContain(ping);
    }
    const [pulse] = (await (await agent.api(`/api/monitors/${monitor.id}/pulses`, { token: readOnly })).json()).data;
    expect(pulse.body).toBe(`CRONBEAT_API_TOKEN=${HIDDEN_API_KEY}\nAuthorization: Bearer ${HIDDEN_API_KEY}\nexit 1`);
  });
});
