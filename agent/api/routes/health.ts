import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps } from '../deps';

export const HEALTH_PATH = '/api/health';

/**
 * GET /api/health: for load balancers, `docker` HEALTHCHECK and uptime checkers. No token and no
 * data: 200 {"status":"ok"} while the agent answers and its database can be read, else 503.
 * It is answered whatever the Host header says (hostGuard), since it tells nothing.
 */
export function healthRoutes({ store }: ApiDeps): Router {
  const router = new Router(ROUTER_OPTIONS);
  router.get(HEALTH_PATH, (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    try {
      store.db.prepare('SELECT 1').pluck().get();
      ctx.body = { status: 'ok' };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'unavailable', message: 'The agent cannot read its database.' };
    }
  });
  return router;
}
