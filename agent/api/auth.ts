import type { Middleware } from 'koa';
import type { Store } from '../db/store';
import { HttpError } from './errors';
import { FailedAuthLimiter } from './authLimiter';

export interface AuthState {
  companyId: number;
  tokenId: number;
}

const unauthenticated = () => new HttpError(401, 'Unauthenticated.', undefined, { 'WWW-Authenticate': 'Bearer' });
const tooManyFailures = (seconds: number) =>
  new HttpError(429, `Too many failed authentications. Try again in ${seconds} s.`, undefined, { 'Retry-After': String(seconds) });

/** Bearer authentication: puts the token's company in ctx.state, or answers 401 (429 after many failures). */
export function requireToken(store: Store, clock: () => number, limiter = new FailedAuthLimiter()): Middleware<AuthState> {
  return async (ctx, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'));
    const presented = match?.[1] ?? '';
    const wait = limiter.retryAfter(ctx.ip, presented, clock());
    if (wait > 0) throw tooManyFailures(wait);
    const token = presented ? store.apiTokens.authenticate(presented) : null;
    if (!token) {
      limiter.failed(ctx.ip, clock());
      throw unauthenticated();
    }
    limiter.succeeded(presented);
    store.apiTokens.touch(token.id, clock());
    ctx.state.companyId = token.companyId;
    ctx.state.tokenId = token.id;
    await next();
  };
}
