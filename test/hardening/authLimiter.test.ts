import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_LIMITER_POLICY } from '../../agent/api/http/authLimiter';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/* Repeated failed authentications from one client are slowed down, never locking out a right token. */

const { burst, refillMs } = DEFAULT_AUTH_LIMITER_POLICY;
let now = Date.UTC(2026, 10, 21, 12);
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
});
afterAll(() => agent.stop());

const guess = (token: string | null = 'cb_guess') => agent.api('/api/monitors', { token });

describe('failed authentications', () => {
  it(`answers 401 for the first ${burst} failures, then 429 with Retry-After, while the right token keeps working`, async () => {
    expect((await guess(agent.token)).status).toBe(200); // the right token, known before the attack
    for (let i = 0; i < burst; i++) expect((await guess(`cb_guess${i}`)).status).toBe(401);

    const slowed = await guess();
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('Retry-After'))).toBe(Math.ceil(refillMs / 1000));
    expect((await slowed.json()).message).toMatch(/Too many failed authentications/);
    expect((await guess(null)).status).toBe(401); // no token at all is no guess: it spends nothing

    expect((await guess(agent.token)).status).toBe(200);
    expect((await agent.api('/api/servers')).status).toBe(200);
  });

  it('still checks every token while slowed, so a right token never seen before gets in', async () => {
    const fresh = agent.tokenFor(1);
    expect((await guess(fresh)).status).toBe(200);
    expect((await guess()).status).toBe(429);
  });

  it('lets one more guess through per refill period', async () => {
    now += refillMs;
    expect((await guess()).status).toBe(401);
    expect((await guess()).status).toBe(429);
    now += burst * refillMs; // quiet for long enough: the whole budget is back
    for (let i = 0; i < burst; i++) expect((await guess()).status).toBe(401);
    expect((await guess()).status).toBe(429);
  });

  it('still refuses a known token once it is revoked', async () => {
    const { id, token } = agent.store.apiTokens.create({ companyId: 1, name: 'soon revoked', now });
    now += burst * refillMs;
    expect((await guess(token)).status).toBe(200);
    agent.store.apiTokens.revoke(id, now);
    expect((await guess(token)).status).toBe(401);
  });
});
