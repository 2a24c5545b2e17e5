import { hostname, networkInterfaces } from 'node:os';
import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import { isLoopbackOnly, remoteUrls, urlFor } from '../../domain/access/reachability';

/**
 * GET /api/agent: where this agent listens and the base URLs other machines can use to reach it
 * (the public URL first, then the names given with --allow-host). When it listens on loopback only, `remote_urls` are
 * the ones that will work once it listens on all addresses, so the dashboard can say how. `popups`:
 * whether alerts also show as popups on this machine's desktop (not on a headless agent).
 */
export function agentInfoRoutes({ requireToken, boundHost = '127.0.0.1', allowedHosts = [], publicUrl, popups = false }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  router.get('/api/agent', requireToken, (ctx) => {
    const port = ctx.req.socket.localPort ?? 0;
    const named = allowedHosts.map((name) => urlFor(name.trim().toLowerCase().replace(/\.$/, ''), port));
    const chosen = publicUrl?.current() ?? null;
    ctx.body = {
      host: boundHost,
      port,
      loopback_only: isLoopbackOnly(boundHost) && chosen === null,
      public_url: chosen,
      remote_urls: [...new Set([...(chosen ? [chosen] : []), ...named, ...remoteUrls(boundHost, port, networkInterfaces(), hostname())])],
      popups,
    };
  });
  return router;
}
