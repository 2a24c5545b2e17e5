import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import { z } from 'zod';
import type { Store } from '../../db/store';
import { newSignInCode, signInCodeRepository } from '../../db/signInCodes';
import { revokeKey } from '../../db/keyRevocation';
import type { ApiDeps, AuthedRouter } from '../deps';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/errors';
import { validate } from '../http/validate';
import { tooManyFailures } from '../http/auth';
import { clientKey, FailedAuthLimiter } from '../http/authLimiter';
import type { SessionScope, WireNewSession, WireSession } from '../../contract/session';

/*
 * Dashboard sessions. `cronbeat serve` prints a link whose URL fragment carries a one-time code;
 * the dashboard trades it here for an API token named "dashboard" and sends that as Bearer.
 * Signing out revokes a session token; a pasted API token is left alone.
 */

const SESSION_TOKEN_NAME = 'dashboard';

const sessionInput = z.object({
  code: z
    .string({ error: (issue) => (issue.input == null ? 'The code field is required.' : 'The code field must be a string.') })
    .trim()
    .min(1, 'The code field is required.')
    .max(200, 'The code field must not be greater than 200 characters.'),
});

/**
 * A sign-in link to print now whose code is stored later by `save`, for an agent that listens
 * before it may write (its start-up check still running): a click on the link waits for that.
 */
export function prepareSignInLink(baseUrl: string, companyId = 1): { link: string; save: (store: Store, now: number) => void } {
  const code = newSignInCode();
  return { link: `${baseUrl}/#/sign-in?code=${code}`, save: (store, now) => void signInCodeRepository(store.db).create(companyId, now, code) };
}

/*
 * A used code says when and for which key it was used: a link read over a shoulder, in a log or a
 * screenshot and used first by someone else leaves its owner only this to learn of it, and the
 * key to revoke. Whoever holds the code learns nothing that would let them in.
 */
function codeRefusal(used: { usedAt: number; tokenId: number | null } | null, isLive: (tokenId: number) => boolean): string {
  if (!used || used.tokenId === null) return 'This sign-in code is invalid, expired or already used.';
  const at = `${new Date(used.usedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const usedFor = `This sign-in code was already used, at ${at}, for the key "${SESSION_TOKEN_NAME}" (id ${used.tokenId})`;
  if (!isLive(used.tokenId)) return `${usedFor}, which has since been revoked.`;
  return `${usedFor}. If that was not you, revoke that key: Revoke in the dashboard's Settings, or cronbeat token revoke ${used.tokenId}.`;
}

export function sessionRoutes({ store, events, clock, requireToken }: ApiDeps): AuthedRouter {
  const codes = signInCodeRepository(store.db);
  // Wrong codes are throttled like wrong tokens; the right code is always traded (authLimiter.ts).
  const limiter = new FailedAuthLimiter();
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);

  router.post('/api/session', async (ctx) => {
    // A page on another origin can only send simple types (text/plain, forms) without a
    // preflight, which the agent refuses: requiring JSON keeps web pages from trading or guessing codes.
    if (!ctx.is('application/json')) throw new HttpError(415, 'Send the code as JSON: Content-Type: application/json.');
    const { code } = validate(sessionInput, await readJsonBody(ctx));
    const now = clock();
    const session = codes.redeem(code, now, (companyId) => ({
      ...store.apiTokens.create({ companyId, name: SESSION_TOKEN_NAME, now }),
      companyId,
    }));
    if (!session) {
      const client = clientKey(ctx.ip);
      const wait = limiter.retryAfter(client, now);
      if (wait > 0) throw tooManyFailures(wait, 'sign-in codes');
      limiter.failed(client, now);
      throw HttpError.validation({ code: [codeRefusal(codes.usedAs(code), (id) => store.apiTokens.isLive(id))] });
    }
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    const body: WireNewSession = { token: session.token, token_id: session.id, company_id: session.companyId, name: SESSION_TOKEN_NAME };
    ctx.body = body;
  });

  router.get('/api/session', requireToken, (ctx) => {
    const { companyId, tokenId, scope } = ctx.state;
    // requireToken let only a full or read-only key this far (ping and badge keys read nothing).
    const body: WireSession = { company_id: companyId, token_id: tokenId, kind: store.apiTokens.isSession(tokenId) ? 'session' : 'api_token', scope: scope as SessionScope };
    ctx.body = body;
  });

  router.delete('/api/session', requireToken, (ctx) => {
    const { companyId, tokenId } = ctx.state;
    const rotated = store.apiTokens.isSession(tokenId) ? revokeKey(store, tokenId, clock()) : null;
    if (rotated !== null) {
      events.emit({ type: 'key.revoked', companyId, tokenId });
      for (const monitorId of rotated) events.emit({ type: 'monitor.changed', companyId, monitorId });
    }
    ctx.status = 204;
  });

  return router;
}
