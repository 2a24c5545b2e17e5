import type { Middleware } from 'koa';
import type { Store } from '../db/store';
import { HttpError } from './errors';

export interface AuthState {
  companyId: number;
  tokenId: number;
}

const unauthenticated = () => new HttpError(401, 'Unauthenticated.', undefined, { 'WWW-Authenticate': 'Bearer' });

/** Bearer authentication: puts the token's company in ctx.state, or answers 401. */
export function requireToken(store: Store, clock: () => number): Middleware<AuthState> {
  return async (ctx, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('Authorization'));
    const token = match ? store.apiTokens.authenticate(match[1]) : null;
    if (!token) throw unauthenticated();
    store.apiTokens.touch(token.id, clock());
    ctx.state.companyId = token.companyId;
    ctx.state.tokenId = token.id;
    await next();
  };
}
