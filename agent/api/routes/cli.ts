import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import { cliCommandFor, cliFactsOfThisProcess } from '../present/cliCommand';
import type { ApiDeps, AuthedRouter } from '../deps';

/** How this machine runs the `cronbeat` CLI (see cliCommand.ts); the dashboard builds its lines from it. */
export function cliRoutes({ requireToken, cli }: ApiDeps): AuthedRouter {
  const answer = cli ?? cliCommandFor(cliFactsOfThisProcess());
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  router.get('/api/cli', requireToken, (ctx) => {
    ctx.body = answer;
  });
  return router;
}
