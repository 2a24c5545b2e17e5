import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';
import { rawRequest } from './rawRequest';

/* The dashboard's pages send a CSP, nosniff, no-referrer, and refuse to be framed. */

let agent: TestAgent;
beforeAll(async () => {
  const rendererDir = tempDir();
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Cronbeat</title><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  agent = await startTestAgent({ rendererDir });
});
afterAll(() => agent.stop());

describe('dashboard security headers', () => {
  it.each([['/'], ['/monitors/12'], ['/assets/app.js']])('%s', async (path) => {
    const response = await fetch(`${agent.url}${path}`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

/*
 * Every other answer (the API's, its errors, a pulse's, a refused Host's) sends the same guards,
 * with a policy that lets nothing run: a JSON answer opened as a page, framed, or sniffed as a
 * script does nothing. (OWASP's REST cheat sheet asks the same of an API.)
 */
describe('security headers on every answer', () => {
  const answers: Array<[string, (url: string, port: number) => Promise<{ status: number; headers: Record<string, unknown> }>, number]> = [
    ['an API answer', (url) => rawRequest(`${url}/api/monitors`, { headers: { Authorization: `Bearer ${agent.token}` } }), 200],
    ['401 without a key', (url) => rawRequest(`${url}/api/monitors`), 401],
    ['404 of an unknown API path', (url) => rawRequest(`${url}/api/nothing-here`), 404],
    ['405 of a wrong method', (url) => rawRequest(`${url}/api/monitors`, { method: 'PUT', headers: { Authorization: `Bearer ${agent.token}` } }), 405],
    ['415 of a sign-in sent as a form', (url) => rawRequest(`${url}/api/session`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{"code":"x"}' }), 415],
    ['422 of a wrong sign-in code', (url) => rawRequest(`${url}/api/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"code":"x"}' }), 422],
    ['403 of a cross-origin preflight', (url) => rawRequest(`${url}/api/monitors`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'DELETE' } }), 403],
    ['421 of a rebinding Host, on the dashboard', (url, port) => rawRequest(`${url}/`, { headers: { Host: `evil.example:${port}` } }), 421],
    ['421 of a rebinding Host, on the API', (url, port) => rawRequest(`${url}/api/monitors`, { headers: { Host: `evil.example:${port}` } }), 421],
    ['a POST to the dashboard', (url) => rawRequest(`${url}/`, { method: 'POST' }), 404],
    ['the health check', (url) => rawRequest(`${url}/api/health`), 200],
    ['a pulse', (url) => rawRequest(`${url}/api/pulse/${pulseToken}`), 200],
    ['a pulse of an unknown monitor', (url) => rawRequest(`${url}/api/pulse/00000000-0000-4000-8000-000000000000`), 404],
    ['a pulse Koa answers (a wrong action)', (url) => rawRequest(`${url}/api/pulse/00000000-0000-4000-8000-000000000000/nonsense/more`), 404],
    ['a badge of an unknown key', (url) => rawRequest(`${url}/api/badges/nothing/all.svg`), 404],
  ];

  let pulseToken: string;
  beforeAll(async () => {
    const monitor = await agent.api('/api/monitors', { method: 'POST', json: { name: 'Backup', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } });
    pulseToken = ((await monitor.json()) as { token: string }).token;
  });

  it.each(answers)('%s', async (_label, send, status) => {
    const response = await send(agent.url, Number(new URL(agent.url).port));
    expect(response.status).toBe(status);
    const csp = String(response.headers['content-security-policy'] ?? '');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/default-src '(none|self)'/);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });
});
