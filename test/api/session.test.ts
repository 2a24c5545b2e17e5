import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInLink } from '../helpers/signIn';
import { SIGN_IN_CODE_TTL_MS } from '../../agent/db/signInCodes';
import { SESSION_IDLE_DAYS } from '../../agent/domain/access/sessions';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

let now = Date.UTC(2026, 10, 21, 12, 0, 0);
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent({ clock: () => now });
});
afterAll(() => agent.stop());

function codeOf(link: string): string {
  return new URLSearchParams(link.split('?')[1]).get('code')!;
}

const redeem = (code: unknown) => agent.api('/api/session', { method: 'POST', json: { code }, token: null });

describe('dashboard sessions', () => {
  it('prints a link whose fragment carries the code, and trades the code once for a "dashboard" token', async () => {
    const link = createSignInLink(agent.store, agent.url, now);
    expect(link).toMatch(new RegExp(`^${agent.url}/#/sign-in\\?code=[A-Za-z0-9_-]{22}$`));
    const first = await redeem(codeOf(link));
    expect(first.status).toBe(201);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const session = await first.json();
    expect(session).toMatchObject({ company_id: 1, name: 'dashboard' });
    expect(typeof session.token).toBe('string');

    const monitors = await agent.api('/api/monitors', { token: session.token });
    expect(monitors.status).toBe(200);
    expect(agent.store.apiTokens.list().find((t) => t.id === session.token_id)?.name).toBe('dashboard');

    // Used again (a link read over a shoulder, in a log, a screenshot): whoever holds it is told when it was used and for which key, so the one it was printed for can revoke a session that is not theirs.
    now += 60_000;
    const again = await redeem(codeOf(link));
    expect(again.status).toBe(422);
    expect((await again.json()).errors.code).toEqual([
      `This sign-in code was already used, at 2026-11-21 12:00 UTC, for the key "dashboard" (id ${session.token_id}). ` +
        `If that was not you, revoke that key: Revoke in the dashboard's Settings, or cronbeat token revoke ${session.token_id}.`,
    ]);
    expect((await (await redeem('never-printed')).json()).errors.code).toEqual(['This sign-in code is invalid, expired or already used.']);
  });

  it('never stores the code itself', async () => {
    const code = codeOf(createSignInLink(agent.store, agent.url, now));
    const rows = agent.store.db.prepare('SELECT * FROM sign_in_codes').all();
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it('refuses an expired code, an unknown one, and bad input, naming the field', async () => {
    const code = codeOf(createSignInLink(agent.store, agent.url, now));
    now += SIGN_IN_CODE_TTL_MS + 1;
    expect((await redeem(code)).status).toBe(422);
    expect((await redeem('nope')).status).toBe(422);
    for (const bad of [undefined, 42, '', 'x'.repeat(201)]) {
      const response = await redeem(bad);
      expect(response.status).toBe(422);
      expect(Object.keys((await response.json()).errors)).toEqual(['code']);
    }
    const notJson = await agent.api('/api/session', { method: 'POST', body: '{', headers: { 'Content-Type': 'application/json' }, token: null });
    expect(notJson.status).toBe(400);
  });

  it('tells a session token from a pasted API token', async () => {
    const session = await (await redeem(codeOf(createSignInLink(agent.store, agent.url, now)))).json();
    expect(await (await agent.api('/api/session', { token: session.token })).json()).toMatchObject({ kind: 'session', company_id: 1 });
    expect(await (await agent.api('/api/session')).json()).toMatchObject({ kind: 'api_token', company_id: 1 });
    expect((await agent.api('/api/session', { token: null })).status).toBe(401);
  });

  it("says the key's scope after the fields it always had: full for a full key and a sign-in session, read-only for a read-only key", async () => {
    const full = agent.store.apiTokens.authenticate(agent.token, now)!;
    expect(await (await agent.api('/api/session')).text()).toBe(`{"company_id":1,"token_id":${full.id},"kind":"api_token","scope":"full"}`);

    const readOnly = agent.store.apiTokens.create({ companyId: 1, name: 'wall display', scope: 'read-only', now });
    expect(await (await agent.api('/api/session', { token: readOnly.token })).text()).toBe(
      `{"company_id":1,"token_id":${readOnly.id},"kind":"api_token","scope":"read-only"}`,
    );

    const session = await (await redeem(codeOf(createSignInLink(agent.store, agent.url, now)))).json();
    expect(await (await agent.api('/api/session', { token: session.token })).text()).toBe(
      `{"company_id":1,"token_id":${session.token_id},"kind":"session","scope":"full"}`,
    );

    // Ping and badge keys read nothing, this included.
    for (const scope of ['ping', 'badge'] as const) {
      const key = agent.store.apiTokens.create({ companyId: 1, name: scope, scope, now }).token;
      expect((await agent.api('/api/session', { token: key })).status).toBe(403);
    }
  });

  it('signing out revokes a session token at once, but never a pasted API token', async () => {
    const code = codeOf(createSignInLink(agent.store, agent.url, now));
    const session = await (await redeem(code)).json();
    expect((await agent.api('/api/session', { method: 'DELETE', token: session.token })).status).toBe(204);
    expect((await agent.api('/api/monitors', { token: session.token })).status).toBe(401);
    // Its code, tried again, does not ask to revoke a key that is gone.
    expect((await (await redeem(code)).json()).errors.code[0]).toMatch(new RegExp(`for the key "dashboard" \\(id ${session.token_id}\\), which has since been revoked\\.$`));

    expect((await agent.api('/api/session', { method: 'DELETE' })).status).toBe(204);
    expect((await agent.api('/api/monitors')).status).toBe(200);
  });

  it('issues the session for the code\'s company', async () => {
    agent.store.companies.ensure(2, now);
    const code = codeOf(createSignInLink(agent.store, agent.url, now, 2));
    const session = await (await redeem(code)).json();
    expect(session.company_id).toBe(2);
  });

  it('ends a sign-in session unused for longer than its idle limit, and never a key made by token create', async () => {
    const day = 24 * 3_600_000;
    const session = await (await redeem(codeOf(createSignInLink(agent.store, agent.url, now)))).json();
    const key = agent.store.apiTokens.create({ companyId: 1, name: 'script', now });
    const start = now;
    try {
      // Used now and then, however long in all, a session keeps working.
      for (let i = 1; i <= 3; i++) {
        now = start + i * (SESSION_IDLE_DAYS - 1) * day;
        expect((await agent.api('/api/monitors', { token: session.token })).status).toBe(200);
      }
      now += SESSION_IDLE_DAYS * day + 60_000;
      expect((await agent.api('/api/monitors', { token: key.token })).status).toBe(200);
      expect((await agent.api('/api/monitors', { token: session.token })).status).toBe(401);
      // Ended for good: revoked, so it leaves the key list, and using it again changes nothing.
      expect(agent.store.apiTokens.listLive(1).some((t) => t.id === session.token_id)).toBe(false);
      now = start;
      expect((await agent.api('/api/monitors', { token: session.token })).status).toBe(401);
    } finally {
      now = start;
    }
  });
});
