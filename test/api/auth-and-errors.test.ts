import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

const SPEC_ROUTES: Array<[string, string]> = [
  ['GET', '/api/servers'],
  ['GET', '/api/servers/1'],
  ['POST', '/api/servers'],
  ['DELETE', '/api/servers/1'],
  ['POST', '/api/servers/alert'],
  ['GET', '/api/monitors'],
  ['GET', '/api/monitors/1'],
  ['POST', '/api/monitors'],
  ['DELETE', '/api/monitors/1'],
  ['GET', '/api/notifications'],
];

describe('authentication', () => {
  it.each(SPEC_ROUTES)('%s %s answers 401 without a token, with a wrong one and with a revoked one', async (method, path) => {
    const revoked = agent.store.apiTokens.create({ companyId: 1, name: 'old', now: Date.now() });
    agent.store.apiTokens.revoke(revoked.id, Date.now());
    for (const token of [null, 'cb_wrong', agent.token + 'x', revoked.token]) {
      const response = await agent.api(path, { method, token, json: method === 'POST' ? {} : undefined });
      expect(response.status, String(token)).toBe(401);
      expect(await response.json()).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('accepts the scheme in any case, and refuses other schemes', async () => {
    expect((await fetch(`${agent.url}/api/servers`, { headers: { Authorization: `bearer ${agent.token}` } })).status).toBe(200);
    expect((await fetch(`${agent.url}/api/servers`, { headers: { Authorization: `Basic ${agent.token}` } })).status).toBe(401);
  });

  it('revoking a token locks it out at once', async () => {
    const { id, token } = agent.store.apiTokens.create({ companyId: 1, name: 'short-lived', now: Date.now() });
    expect((await agent.api('/api/servers', { token })).status).toBe(200);
    agent.store.apiTokens.revoke(id, Date.now());
    expect((await agent.api('/api/servers', { token })).status).toBe(401);
  });

  it('stores tokens only as SHA-256 hashes', () => {
    const hashes = agent.store.db.prepare('SELECT token_hash FROM api_tokens').pluck().all() as string[];
    for (const hash of hashes) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const dump = JSON.stringify(agent.store.db.prepare('SELECT * FROM api_tokens').all());
    expect(dump).not.toContain(agent.token);
  });
});

describe('company isolation', () => {
  it('answers 404 for another company\'s rows and never lists them', async () => {
    const other = agent.tokenFor(2);
    const server = await (await agent.api('/api/servers', { method: 'POST', json: { name: 'a', ip_address: '10.0.0.9', identifier: 'mine' } })).json();
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'm', timezone: 'UTC', schedule: '* * * * *', duration: 1 } })).json();
    for (const path of [`/api/servers/${server.id}`, `/api/monitors/${monitor.id}`]) {
      expect((await agent.api(path, { token: other })).status).toBe(404);
      expect((await agent.api(path, { token: other, method: 'DELETE' })).status).toBe(404);
      expect((await agent.api(path)).status).toBe(200);
    }
    expect(await (await agent.api('/api/servers', { token: other })).json()).toEqual([]);
    expect(await (await agent.api('/api/monitors', { token: other })).json()).toEqual([]);
    const alert = await agent.api('/api/servers/alert', { token: other, method: 'POST', json: { username: 'u', server_id: 'mine', command: 'c' } });
    expect(alert.status).toBe(404);
    // The same identifier is free in another company.
    const twin = await agent.api('/api/servers', { token: other, method: 'POST', json: { name: 'b', ip_address: '10.0.0.9', identifier: 'mine' } });
    expect(twin.status).toBe(201);
    expect((await twin.json()).company_id).toBe(2);
  });
});

describe('errors', () => {
  it('answers malformed JSON with 400 JSON', async () => {
    const response = await agent.api('/api/servers', { method: 'POST', body: '{"name": ', headers: { 'Content-Type': 'application/json' } });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toMatch(/JSON/);
  });

  it('answers a JSON body that is not an object with 400', async () => {
    const response = await agent.api('/api/monitors', { method: 'POST', body: '[1,2]' });
    expect(response.status).toBe(400);
  });

  it('answers a body over 1 MB with 413, before reading it when its length is declared', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    const response = await agent.api('/api/servers', { method: 'POST', body: big });
    expect(response.status).toBe(413);
    expect((await response.json()).message).toMatch(/larger/);
  });

  it('answers a chunked body over 1 MB with 413 too', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${agent.url}/api/servers`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${agent.token}`, 'Transfer-Encoding': 'chunked' },
      }, (res) => { res.resume(); resolve(res.statusCode!); });
      req.on('error', reject);
      const chunk = 'x'.repeat(64 * 1024);
      for (let i = 0; i < 20; i++) req.write(chunk);
      req.end();
    });
    expect(status).toBe(413);
  });

  it('answers unknown routes with JSON 404 and wrong methods with JSON 405', async () => {
    const unknown = await agent.api('/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: 'Not found.' });
    const wrongMethod = await agent.api('/api/monitors', { method: 'PUT' });
    expect(wrongMethod.status).toBe(405);
    expect((await wrongMethod.json()).message).toBeTruthy();
  });

  it('names the methods a path takes in Allow on a 405, and answers a method no route has (PROPFIND, TRACE) with a 405 too, never a 500', async () => {
    const ask = (method: string, path: string) =>
      new Promise<{ status: number; allow: string | undefined; body: string }>((resolve, reject) => {
        const req = request(agent.url + path, { method, headers: { Authorization: `Bearer ${agent.token}` } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const cases: Array<[string, string, string]> = [
      ['PUT', '/api/monitors', 'HEAD, GET, POST'],
      ['POST', '/api/monitors/1', 'HEAD, GET, PATCH, DELETE'],
      ['PROPFIND', '/api/monitors', 'HEAD, GET, POST'],
      ['TRACE', '/api/servers', 'HEAD, GET, POST'],
      ['PUT', '/api/pulse/6f1c0a36-5a55-4c8f-9a57-7a6c3b1f2e10', 'HEAD, GET, POST'],
    ];
    for (const [method, path, allow] of cases) {
      const answer = await ask(method, path);
      expect(answer.status, `${method} ${path}`).toBe(405);
      expect(answer.allow?.split(', ').sort(), `${method} ${path}`).toEqual(allow.split(', ').sort());
      expect(JSON.parse(answer.body)).toEqual({ message: 'Method Not Allowed' });
    }
    for (const method of ['PROPFIND', 'TRACE']) {
      const answer = await ask(method, '/api/nothing-here');
      expect(answer.status, method).toBe(404);
      expect(JSON.parse(answer.body)).toEqual({ message: 'Not found.' });
    }
  });
});
