import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A query parameter written as a list, as PHP's http_build_query and Rails' to_query write one
 * (`?tag[]=prod`, `?page%5B0%5D=2`). Found by an outside fuzzing pass: read under its written
 * name it was a parameter no route takes, so it was ignored and the answer was a 200 for a
 * request the client did not make: every monitor instead of those tagged prod, page 1 instead of
 * page 2, a pulse's `?status[]=down` (Uptime Kuma's outcome) counted as a success. It is that
 * parameter given as a list now, as Laravel reads it: a 422 naming it, as `?tag=a&tag=b` is,
 * and nothing recorded.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

async function answer(path: string, init?: Parameters<TestAgent['api']>[1]) {
  const response = await agent.api(path, init);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a query parameter written as a list', () => {
  it('is that parameter given as a list: a 422 naming it on every route that takes it once', async () => {
    const monitor = (await answer('/api/monitors', { method: 'POST', json: { name: 'Backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 5, tags: ['db'] } })).body;
    const channel = (await answer('/api/channels', { method: 'POST', json: { name: 'ops', kind: 'slack', settings: { webhook_url: 'https://hooks.slack.com/services/T/B/X' } } })).body;
    for (const [path, field] of [
      ['/api/monitors?tag[]=prod', 'tag'],
      ['/api/monitors?status%5B%5D=failed', 'status'],
      ['/api/monitors?project_id[0]=3', 'project_id'],
      ['/api/notifications?page[]=2', 'page'],
      ['/api/notifications?per_page[]=5&per_page[]=6', 'per_page'],
      ['/api/notifications/count?unread[]=1', 'unread'],
      ['/api/maintenance-windows?active[]=true', 'active'],
      ['/api/maintenance-windows?page[]=2', 'page'],
      ['/api/servers?q[]=web', 'q'],
      [`/api/monitors/${monitor.id}/pulses?page[]=2`, 'page'],
      [`/api/channels/${channel.id}/report-preview?frequency[]=weekly`, 'frequency'],
      ['/api/monitors?tag=db&tag[]=prod', 'tag'],
    ]) {
      const { status, body } = await answer(path);
      expect(status, path).toBe(422);
      expect(body.errors, path).toEqual({ [field]: [`The ${field.replace('_', ' ')} field must be given once.`] });
    }
  });

  it('on a pulse is refused whole, naming it, and records nothing', async () => {
    const monitor = (await answer('/api/monitors', { method: 'POST', json: { name: 'Sync', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })).body;
    for (const method of ['GET', 'POST']) {
      const { status, body } = await answer(`/api/pulse/${monitor.token}?status[]=down`, { method, token: null });
      expect(status).toBe(422);
      expect(Object.keys(body.errors as object)).toEqual(['status']);
    }
    expect((await answer(`/api/monitors/${monitor.id}/pulses`)).body.total).toBe(0);
    expect((await answer(`/api/monitors/${monitor.id}`)).body.last_pulse_at).toBeNull();
  });

  it('is ignored as any parameter no route takes, whatever its name', async () => {
    for (const path of ['/api/monitors?zzz[]=1', '/api/monitors?__proto__[]=1&constructor[a]=2', '/api/notifications?[]=1&a[=2']) {
      expect((await answer(path)).status, path).toBe(200);
    }
    expect((await answer('/api/monitors?tag=db')).body).toHaveLength(1);
  });
});
