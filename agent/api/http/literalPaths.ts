import type { Middleware } from 'koa';
import type Router from '@koa/router';
import { HttpError } from './errors';

/**
 * A path some route names word for word (`/api/servers/alert`, `/api/notifications/read`) asked
 * with a method it does not take answers 405 with the methods it does, as every known path does.
 * Without this a route with a parameter at the same place would take it: `GET /api/servers/alert`
 * would look for the server with the id "alert" and answer "Server not found.", and
 * `PATCH /api/notifications/read` "Notification not found.".
 */
export function literalPathMethods(routers: Array<Pick<Router, 'stack'>>): Middleware {
  const methods = new Map<string, string[]>();
  for (const router of routers) {
    for (const layer of router.stack) {
      if (layer.methods.length === 0 || layer.paramNames.length > 0 || typeof layer.path !== 'string') continue;
      const known = methods.get(layer.path) ?? [];
      methods.set(layer.path, [...known, ...layer.methods.filter((method) => !known.includes(method))]);
    }
  }
  return async (ctx, next) => {
    const allowed = methods.get(ctx.path.length > 1 ? ctx.path.replace(/\/$/, '') : ctx.path);
    if (!allowed || allowed.includes(ctx.method)) return next();
    if (ctx.method === 'OPTIONS') {
      // As the routers answer OPTIONS (allowedMethods), with this path's methods only.
      ctx.set('Allow', allowed.join(', '));
      ctx.status = 200;
      ctx.body = '';
      return;
    }
    throw new HttpError(405, 'Method Not Allowed', undefined, { Allow: allowed.join(', ') });
  };
}
