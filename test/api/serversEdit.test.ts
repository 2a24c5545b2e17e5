import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/* PATCH /api/servers/{id} and GET /api/servers?q=. */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

let serial = 0;
async function create(overrides: Record<string, unknown> = {}) {
  serial += 1;
  const body = { name: `web ${serial}`, ip_address: '10.0.0.1', identifier: `web-${serial}`, ...overrides };
  const response = await agent.api('/api/servers', { method: 'POST', json: body });
  expect(response.status).toBe(201);
  return response.json();
}
const patch = (id: number, json: unknown, token?: string | null) => agent.api(`/api/servers/${id}`, { method: 'PATCH', json, token });
const row = (id: number) => agent.store.db.prepare('SELECT * FROM servers WHERE id = ?').get(id);

describe('PATCH /api/servers/{id}', () => {
  it('edits any of name, ip_address and identifier; the alert route then uses the new identifier', async () => {
    const server = await create();
    const response = await patch(server.id, { name: 'Primary web', ip_address: '2001:db8::1', identifier: 'web-primary' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: server.id, name: 'Primary web', ip_address: '2001:db8::1', identifier: 'web-primary', created_at: server.created_at });
    const alert = await agent.api('/api/servers/alert', { method: 'POST', json: { username: 'root', server_id: 'web-primary', command: 'x' } });
    expect(alert.status).toBe(201);
    // Keeping its own identifier is no conflict.
    expect((await patch(server.id, { identifier: 'web-primary', name: 'Web' })).status).toBe(200);
  });

  it.each([
    ['name', { name: '' }],
    ['ip_address', { ip_address: '10.0.0.300' }],
    ['identifier', { identifier: 'has space' }],
    ['body', {}],
    // The misspelt field is named (and the body names none of the fields).
    ['hostname,body', { hostname: 'typo' }],
  ])('answers 422 naming %s for %j and changes nothing', async (field, body) => {
    const server = await create();
    const before = row(server.id);
    const response = await patch(server.id, body);
    expect(response.status).toBe(422);
    expect(Object.keys((await response.json()).errors)).toEqual(field.split(','));
    expect(row(server.id)).toEqual(before);
  });

  it('keeps identifiers unique in the company, but not across companies', async () => {
    const a = await create();
    const b = await create();
    const before = row(b.id);
    const response = await patch(b.id, { identifier: a.identifier });
    expect(response.status).toBe(422);
    expect((await response.json()).errors).toEqual({ identifier: ['The identifier has already been taken.'] });
    expect(row(b.id)).toEqual(before);
    const other = agent.tokenFor(2);
    const theirs = await (await agent.api('/api/servers', { method: 'POST', json: { name: 'x', ip_address: '10.0.0.9', identifier: 'theirs' }, token: other })).json();
    expect((await patch(theirs.id, { identifier: a.identifier }, other)).status).toBe(200);
  });

  it('answers 401 and 404 for another company\'s server, changing nothing', async () => {
    const server = await create();
    const before = row(server.id);
    expect((await patch(server.id, { name: 'x' }, null)).status).toBe(401);
    expect((await patch(server.id, { name: 'x' }, agent.tokenFor(3))).status).toBe(404);
    expect(row(server.id)).toEqual(before);
  });
});

describe('GET /api/servers?q=', () => {
  it('finds servers by name, identifier or IP address, in any case', async () => {
    const token = agent.tokenFor(4);
    const make = (json: Record<string, unknown>) => agent.api('/api/servers', { method: 'POST', json, token }).then((r) => r.json());
    const db = await make({ name: 'Database', ip_address: '192.168.1.20', identifier: 'pg-main' });
    const web = await make({ name: 'Web front', ip_address: '192.168.1.30', identifier: 'nginx-1' });
    const ids = async (q: string) => (await (await agent.api(`/api/servers?q=${encodeURIComponent(q)}`, { token })).json()).map((s: { id: number }) => s.id);
    expect(await ids('DATA')).toEqual([db.id]);
    expect(await ids('nginx')).toEqual([web.id]);
    expect(await ids('192.168.1.')).toEqual([db.id, web.id]);
    expect(await ids('')).toEqual([db.id, web.id]);
    expect(await ids('nothing')).toEqual([]);
    expect((await agent.api(`/api/servers?q=${'x'.repeat(256)}`, { token })).status).toBe(422);
  });
});
