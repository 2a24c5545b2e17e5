import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * Behind a TLS proxy the agent trusts (--trust-proxy), a request its proxy says came over https
 * (X-Forwarded-Proto) is answered with Strict-Transport-Security, so a browser that once reached
 * the dashboard over https never falls back to plain http there. Never over plain http: not when
 * the proxy says http, not when the agent trusts no proxy (anyone could send the header).
 */

const HSTS = 'max-age=31536000';

/** A real request with headers fetch will not send (X-Forwarded-*); resolves with the answer's status and HSTS header. */
function hstsOf(agent: TestAgent, method: string, path: string, headers: Record<string, string>): Promise<{ status: number; hsts: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(agent.url + path, { method, headers: { Host: 'cronbeat.example.com', ...headers }, agent: false }, (response) => {
      response.resume().on('end', () => resolve({ status: response.statusCode ?? 0, hsts: response.headers['strict-transport-security'] as string | undefined }));
    })
      .on('error', reject)
      .end();
  });
}

const FORWARDED_HTTPS = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '203.0.113.9' };
const ANSWERS: Array<[string, string, string]> = [
  ['the health check', 'GET', '/api/health'],
  ['an API error (401)', 'GET', '/api/monitors'],
  ['a page of the dashboard', 'GET', '/'],
  ['a pulse', 'POST', '/api/pulse/no-such-token'],
];

describe('Strict-Transport-Security behind a trusted proxy', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ trustProxy: true, allowedHosts: ['cronbeat.example.com'] });
  });
  afterAll(() => agent.stop());

  for (const [what, method, path] of ANSWERS) {
    it(`is sent with ${what} that came over https`, async () => {
      expect((await hstsOf(agent, method, path, FORWARDED_HTTPS)).hsts).toBe(HSTS);
    });
  }

  it('is sent for a pulse whose proxy names the scheme alone', async () => {
    expect((await hstsOf(agent, 'GET', '/api/pulse/no-such-token', { 'X-Forwarded-Proto': 'https' })).hsts).toBe(HSTS);
  });

  it('is never sent over plain http', async () => {
    for (const [what, method, path] of ANSWERS) {
      expect((await hstsOf(agent, method, path, { 'X-Forwarded-Proto': 'http', 'X-Forwarded-For': '203.0.113.9' })).hsts, what).toBeUndefined();
      expect((await hstsOf(agent, method, path, {})).hsts, what).toBeUndefined();
    }
  });
});

describe('Strict-Transport-Security without --trust-proxy', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ allowedHosts: ['cronbeat.example.com'] });
  });
  afterAll(() => agent.stop());

  it('is never sent, whatever X-Forwarded-Proto a client claims', async () => {
    for (const [what, method, path] of ANSWERS) expect((await hstsOf(agent, method, path, FORWARDED_HTTPS)).hsts, what).toBeUndefined();
  });
});
