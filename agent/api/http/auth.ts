import type { Middleware } from 'koa';
import type { Store } from '../../db/store';
import { isStorageFull } from '../../db/storageErrors';
import { HttpError } from './errors';
import { clientKey, FailedAuthLimiter } from './authLimiter';
import { accessOf, scopeAllows, scopeRefusal, type KeyScope } from '../../domain/access/keyScopes';

export interface AuthState {
  companyId: number;
  tokenId: number;
  scope: KeyScope;
}

const unauthenticated = () => new HttpError(401, 'Unauthenticated.', undefined, { 'WWW-Authenticate': 'Bearer' });

/** 429 once a client's wrong credentials (`what`: "authentications", "sign-in codes") spent its budget. */
export const tooManyFailures = (seconds: number, what = 'authentications') =>
  new HttpError(429, `Too many failed ${what}. Try again in ${seconds} s.`, undefined, { 'Retry-After': String(seconds) });

/**
 * What a wrong credential (a Bearer token, or a key in a URL path: a ping key's line pulse, a
 * badge key) gets: `refusal`, spending one failure of the client's budget, or 429 once that is
 * spent. Every door that takes a key shares one budget per client, so trying keys at another door
 * buys no more guesses. Only wrong credentials come here: a right one is let in before.
 */
export function wrongCredential(limiter: FailedAuthLimiter, ip: string | undefined, now: number, refusal: HttpError): HttpError {
  const client = clientKey(ip);
  const wait = limiter.retryAfter(client, now);
  if (wait > 0) return tooManyFailures(wait);
  limiter.failed(client, now);
  return refusal;
}

/**
 * Bearer authentication: puts the token's company and scope in ctx.state, or answers 401 (429
 * after many wrong tokens from one machine), or 403 when the key's scope does not allow the
 * request (keyScopes.ts: a read-only key only reads, a ping key only reports a server, a badge key gets nothing here).
 * A right token always gets in; a request without any token spends nothing (authLimiter.ts says why).
 */
export function requireToken(store: Store, clock: () => number, limiter = new FailedAuthLimiter()): Middleware<AuthState> {
  return async (ctx, next) => {
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'))?.[1];
    if (!presented) throw unauthenticated();
    const token = store.apiTokens.authenticate(presented, clock());
    if (!token) throw wrongCredential(limiter, ctx.ip, clock(), unauthenticated());
    const access = accessOf(ctx.method, ctx.path);
    if (!scopeAllows(token.scope, access)) throw new HttpError(403, scopeRefusal(token.scope, access));
    recordUse(store, token.id, clock());
    ctx.state.companyId = token.companyId;
    ctx.state.tokenId = token.id;
    ctx.state.scope = token.scope;
    await next();
  };
}

/** After requireToken: only a full key may go on (key management, which a read-only key may not even list). */
export const onlyFullKeys: Middleware<AuthState> = async (ctx, next) => {
  if (!scopeAllows(ctx.state.scope, 'manage-keys')) throw new HttpError(403, scopeRefusal(ctx.state.scope, 'manage-keys'));
  await next();
};

/** Notes when the token was used; on a full disk that note is skipped so reads keep working. */
export function recordUse(store: Store, tokenId: number, now: number): void {
  try {
    store.apiTokens.touch(tokenId, now);
  } catch (error) {
    if (!isStorageFull(error)) throw error;
  }
}
