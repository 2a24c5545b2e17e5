import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_LIMITER_POLICY } from '../../agent/api/http/authLimiter';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * Keys in URL paths (a ping key in a job's line pulse, a badge key) are throttled as Bearer tokens
 * are, from one budget per machine for every door, and a right key is never refused for it.
 * Unknown monitor tokens (/api/pulse/{token}) are not credentials guessed at: they never count.
 */

const { burst, refillMs } = DEFAULT_AUTH_LIMITER_POLICY;
let now = Date.UTC(2026, 10, 27, 12);
let agent: TestAgent;
let pingKey: string;
let badgeKey: string;
let monitorToken: string;
let monitorId: number;

beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
  pingKey = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now }).token;
  badgeKey = agent.store.apiTokens.create({ companyId: 1, name: 'readme', scope: 'badge', now }).token;
  const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'nightly', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } })).json();
  monitorToken = monitor.token;
  monitorId = monitor.id;
});
afterAll(() => agent.stop());

/** A long quiet spell: every budget is whole again. */
const refill = () => (now += (burst + 1) * refillMs);

const linePulse = (key: string) => fetch(`${agent.url}/api/pulse/key/${key}/db-dump?create=1&schedule=0+2+*+*+*`);
const badge = (key: string) => fetch(`${agent.url}/api/badges/${key}/monitors/${monitorId}.svg`);
const bearer = (token: string) => agent.api('/api/monitors', { token });

describe('wrong keys in URL paths', () => {
  it(`a line pulse: 401 for the first ${burst} wrong ping keys, then 429 with Retry-After, while the right key keeps pulsing`, async () => {
    refill();
    expect((await linePulse(pingKey)).status).toBe(201);
    for (let i = 0; i < burst; i++) expect((await linePulse(`cb_wrong${i}`)).status).toBe(401);
    const slowed = await linePulse('cb_wrong');
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('Retry-After'))).toBe(Math.ceil(refillMs / 1000));
    expect((await slowed.json()).message).toMatch(/Too many failed authentications/);
    expect((await linePulse(pingKey)).status).toBe(200);
    // A key made while the machine is slowed down gets in at its first try.
    const fresh = agent.store.apiTokens.create({ companyId: 1, name: 'web-02', scope: 'ping', now }).token;
    expect((await fetch(`${agent.url}/api/pulse/key/${fresh}/web-02-job?create=1&schedule=0+2+*+*+*`)).status).toBe(201);
  });

  it(`a badge: 404 for the first ${burst} wrong badge keys, then 429, while the right key keeps its badge`, async () => {
    refill();
    for (let i = 0; i < burst; i++) expect((await badge(`cb_wrong${i}`)).status).toBe(404);
    expect((await badge('cb_wrong')).status).toBe(429);
    const right = await badge(badgeKey);
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toMatch(/image\/svg\+xml/);
  });

  it('shares one budget per machine with Bearer tokens, so another door buys no more guesses', async () => {
    refill();
    for (let i = 0; i < burst / 2; i++) expect((await linePulse(`cb_wrong${i}`)).status).toBe(401);
    for (let i = 0; i < burst / 2; i++) expect((await badge(`cb_wrong${i}`)).status).toBe(404);
    expect((await bearer('cb_wrong')).status).toBe(429);
    expect((await linePulse('cb_wrong')).status).toBe(429);
    expect((await bearer(agent.token)).status).toBe(200);
    expect((await linePulse(pingKey)).status).toBe(200);
    expect((await badge(badgeKey)).status).toBe(200);
    now += refillMs; // one more guess per refill period, as for Bearer tokens
    expect((await badge('cb_wrong')).status).toBe(404);
    expect((await badge('cb_wrong')).status).toBe(429);
  });

  it('a right key of another scope in a path (403) spends nothing: it is no guess', async () => {
    refill();
    for (let i = 0; i < burst + 5; i++) expect((await badge(agent.token)).status).toBe(403);
    expect((await bearer('cb_wrong')).status).toBe(401);
  });
});

describe('unknown monitor tokens', () => {
  it('answer 404 however many come (a job whose monitor was deleted pings forever), at both doors, and spend nothing', async () => {
    refill();
    const gone = '0b4e7f4c-0000-4000-8000-000000000000';
    // The second door: the token's first character percent-encoded, which only Koa's route takes (plainPulses.ts).
    const throughKoa = `%30${gone.slice(1)}`;
    for (let i = 0; i < burst + 20; i++) {
      expect((await fetch(`${agent.url}/api/pulse/${gone}`)).status).toBe(404);
      expect((await fetch(`${agent.url}/api/pulse/${throughKoa}/fail`, { method: 'POST' })).status).toBe(404);
    }
    expect((await bearer('cb_wrong')).status).toBe(401); // the budget is whole
    expect((await fetch(`${agent.url}/api/pulse/${monitorToken}`)).status).toBe(200);
  });
});
