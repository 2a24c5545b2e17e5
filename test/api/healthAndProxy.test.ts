import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_LIMITER_POLICY } from '../../agent/api/http/authLimiter';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/* GET /api/health for load balancers, and --trust-proxy: forwarded headers count only when trusted. */

interface Reply {
  status: number;
  body: string;
}

/** A real HTTP request with headers fetch will not send (Host, X-Forwarded-*). */
function send(agent: TestAgent, path: string, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    request(agent.url + path, { headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

const { burst } = DEFAULT_AUTH_LIMITER_POLICY;
const now = Date.UTC(2026, 10, 25, 12);

describe('GET /api/health', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ clock: () => now });
  });
  afterAll(() => agent.stop());

  it('answers 200 {"status":"ok"} without a token and tells nothing else', async () => {
    const response = await fetch(`${agent.url}/api/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers under any Host name (a load balancer asks by its own name); the API still refuses that name', async () => {
    expect(await send(agent, '/api/health', { Host: 'lb.internal:80' })).toEqual({ status: 200, body: '{"status":"ok"}' });
    expect((await send(agent, '/api/monitors', { Host: 'lb.internal:80', Authorization: `Bearer ${agent.token}` })).status).toBe(421);
  });
});

async function pulseUrlScheme(agent: TestAgent, headers: Record<string, string>): Promise<string> {
  const reply = await send(agent, '/api/monitors', { Authorization: `Bearer ${agent.token}`, ...headers });
  expect(reply.status).toBe(200);
  const [monitor] = JSON.parse(reply.body) as Array<{ pulse_url: string }>;
  return new URL(monitor.pulse_url).protocol;
}

/** Spends a forwarded client's whole budget of wrong tokens; returns what the next guess from `next` gets. */
async function guessesAs(agent: TestAgent, spender: string, next: string): Promise<{ spender: number; other: number }> {
  for (let i = 0; i < burst; i++) {
    expect((await send(agent, '/api/servers', { Authorization: `Bearer cb_wrong${i}`, 'X-Forwarded-For': spender })).status).toBe(401);
  }
  const again = await send(agent, '/api/servers', { Authorization: 'Bearer cb_wrong', 'X-Forwarded-For': spender });
  const other = await send(agent, '/api/servers', { Authorization: 'Bearer cb_wrong', 'X-Forwarded-For': next });
  return { spender: again.status, other: other.status };
}

describe('without --trust-proxy', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ clock: () => now });
    await agent.api('/api/monitors', { method: 'POST', json: { name: 'backup', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } });
  });
  afterAll(() => agent.stop());

  it('ignores X-Forwarded-Proto: links keep the scheme the request came in with', async () => {
    expect(await pulseUrlScheme(agent, { 'X-Forwarded-Proto': 'https' })).toBe('http:');
  });

  it('answers a named host only at its own port (no proxy to pass on the public name)', async () => {
    const named = await startTestAgent({ clock: () => now, allowedHosts: ['cronbeat.example.com'] });
    const auth = { Authorization: `Bearer ${named.token}` };
    expect((await send(named, '/api/monitors', { Host: 'cronbeat.example.com', ...auth })).status).toBe(421);
    expect((await send(named, '/api/monitors', { Host: `cronbeat.example.com:${named.port}`, ...auth })).status).toBe(200);
    await named.stop();
  });

  it('ignores X-Forwarded-For: a guesser cannot buy a fresh budget by claiming another address', async () => {
    expect(await guessesAs(agent, '198.51.100.1', '198.51.100.2')).toEqual({ spender: 429, other: 429 });
  });
});

describe('with --trust-proxy', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ clock: () => now, trustProxy: true });
    await agent.api('/api/monitors', { method: 'POST', json: { name: 'backup', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } });
  });
  afterAll(() => agent.stop());

  it('answers the public name the proxy passes on (Host without our port), and still no other name', async () => {
    const named = await startTestAgent({ clock: () => now, allowedHosts: ['cronbeat.example.com'], trustProxy: true });
    const auth = { Authorization: `Bearer ${named.token}`, 'X-Forwarded-Proto': 'https' };
    const reply = await send(named, '/api/monitors', { Host: 'cronbeat.example.com', ...auth });
    expect(reply.status).toBe(200);
    expect((await send(named, '/api/monitors', { Host: 'evil.example', ...auth })).status).toBe(421);
    await named.stop();
  });

  it('takes the scheme from X-Forwarded-Proto (https links behind a TLS proxy)', async () => {
    expect(await pulseUrlScheme(agent, { 'X-Forwarded-Proto': 'https' })).toBe('https:');
    expect(await pulseUrlScheme(agent, {})).toBe('http:');
  });

  it('counts failed tokens per forwarded client, so one guesser behind the proxy does not lock out the others', async () => {
    expect(await guessesAs(agent, '203.0.113.7', '203.0.113.8')).toEqual({ spender: 429, other: 401 });
  });

  it('takes the address the proxy added (the last one), not one the client put first', async () => {
    // 203.0.113.7 is spent: claiming another address in front of it buys nothing.
    const reply = await send(agent, '/api/servers', { Authorization: 'Bearer cb_wrong', 'X-Forwarded-For': '192.0.2.99, 203.0.113.7' });
    expect(reply.status).toBe(429);
  });
});
