import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A PATCH that names a field the resource cannot take (a misspelt "schedul" beside a good "name")
 * is a mistake: 422 naming that field, and nothing changed, not even the good field or the
 * channel_ids sent with it. (Found after two features met in one route: such a field was dropped
 * silently and the rest saved.)
 */
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => Date.parse('2026-11-23T10:00:30Z') });
});
afterAll(() => agent.stop());

const call = async (method: string, path: string, json?: unknown) => {
  const response = await agent.api(path, { method, json });
  return { status: response.status, body: await response.json() };
};

describe('PATCH with a field the resource does not have', () => {
  it('refuses it on a monitor, naming it, and changes nothing', async () => {
    const channel = (await call('POST', '/api/channels', { name: 'Hook', kind: 'webhook', settings: { url: 'http://127.0.0.1:9/' } })).body;
    const monitor = (await call('POST', '/api/monitors', { name: 'Backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 })).body;
    const answer = await call('PATCH', `/api/monitors/${monitor.id}`, { name: 'Renamed', schedul: '0 4 * * *', channel_ids: [channel.id] });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors)).toEqual(['schedul']);
    expect(answer.body.errors.schedul[0]).toContain('name, timezone, project_id, schedule, duration, channel_ids');
    expect((await call('GET', `/api/monitors/${monitor.id}`)).body).toMatchObject({ name: 'Backup', schedule: '0 3 * * *', channel_ids: null });
    // The fields a monitor shows but nobody sets are refused the same way (GET, change, PATCH back).
    const roundTrip = await call('PATCH', `/api/monitors/${monitor.id}`, { ...monitor, name: 'Renamed' });
    expect(roundTrip.status).toBe(422);
    expect(roundTrip.body.errors).toHaveProperty('token');
  });

  it('refuses it on a server, naming it, and changes nothing', async () => {
    const server = (await call('POST', '/api/servers', { name: 'web1', ip_address: '10.0.0.1', identifier: 'web1' })).body;
    const answer = await call('PATCH', `/api/servers/${server.id}`, { name: 'web-1', ip: '10.0.0.2' });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors)).toEqual(['ip']);
    expect((await call('GET', `/api/servers/${server.id}`)).body).toMatchObject({ name: 'web1', ip_address: '10.0.0.1' });
  });

  it('refuses it on a certificate, whose PATCH takes channel_ids only, and changes nothing', async () => {
    const certificate = (await call('POST', '/api/ssl-certificates', { hostname: '127.0.0.1', port: 1 })).body;
    const answer = await call('PATCH', `/api/ssl-certificates/${certificate.id}`, { channel_ids: [], warn_days: 30 });
    expect(answer.status).toBe(422);
    expect(Object.keys(answer.body.errors)).toEqual(['warn_days']);
    expect((await call('GET', `/api/ssl-certificates/${certificate.id}`)).body).toMatchObject({ warn_days: 14, channel_ids: null });
  });

  it('names a field called like an Object property (constructor, __proto__) as any other, never a 500', async () => {
    const monitor = (await call('POST', '/api/monitors', { name: 'Props', timezone: 'UTC', schedule: '0 * * * *', duration: 5 })).body;
    for (const body of ['{"constructor":[],"name":"x"}', '{"__proto__":[],"name":"x"}', '{"toString":1,"hasOwnProperty":2,"name":"x"}']) {
      const response = await fetch(`${agent.url}/api/monitors/${monitor.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${agent.token}`, 'content-type': 'application/json', accept: 'application/json' },
        body,
      });
      expect(response.status, body).toBe(422);
      const keys = Object.keys(JSON.parse(body)).filter((key) => key !== 'name');
      expect(Object.keys((await response.json()).errors).sort(), body).toEqual(keys.sort());
    }
    expect((await call('GET', `/api/monitors/${monitor.id}`)).body.name).toBe('Props');
  });

  it('still takes a body of known fields', async () => {
    const monitor = (await call('POST', '/api/monitors', { name: 'Sync', timezone: 'UTC', schedule: '0 * * * *', duration: 5 })).body;
    const answer = await call('PATCH', `/api/monitors/${monitor.id}`, { name: 'Hourly sync', channel_ids: null });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ name: 'Hourly sync', token: monitor.token });
  });
});
