import type { Middleware } from 'koa';
import { HttpError } from './errors';
import { isPulsePath } from './hostGuard';

/*
 * Cross-origin access. The API carries a Bearer token and must never be readable by another
 * origin, so it sends no CORS headers and refuses preflights (403). Pulse URLs are the
 * exception: they carry no credentials (the token in the URL is the secret), so a browser job or
 * a status page may send them from any origin. Badges likewise, for reading only: a status page
 * on its own origin reads their JSON (healthchecks.io's badges allow it too), and a badge key
 * reads nothing else.
 */

export const PULSE_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, HEAD, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '86400',
};

const BADGE_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
  'Access-Control-Max-Age': '86400',
};

const isBadgePath = (path: string) => path.startsWith('/api/badges/');
const READ_METHODS = new Set(['GET', 'HEAD']);

function isPreflight(method: string, headers: Record<string, unknown>): boolean {
  return method === 'OPTIONS' && headers['access-control-request-method'] !== undefined;
}

export function corsPolicy(): Middleware {
  return async (ctx, next) => {
    if (isPulsePath(ctx.path)) {
      ctx.set(PULSE_CORS);
      if (isPreflight(ctx.method, ctx.req.headers)) {
        ctx.status = 204;
        return;
      }
      return next();
    }
    const preflight = isPreflight(ctx.method, ctx.req.headers);
    if (isBadgePath(ctx.path) && (!preflight || READ_METHODS.has(String(ctx.get('access-control-request-method')).toUpperCase()))) {
      ctx.set(BADGE_CORS);
      if (preflight) {
        ctx.status = 204;
        return;
      }
      return next();
    }
    if (preflight) {
      throw new HttpError(403, 'Cross-origin requests are not allowed; only pulse URLs (/api/pulse/…) accept them, and badges (/api/badges/…) for reading.');
    }
    return next();
  };
}
