import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/errors';
import { pathId } from '../http/params';
import { validate } from '../http/validate';
import { lineKeyInput, type WireLineKey } from '../../contract/linePulses';
import { handLineMonitor } from '../../engine/monitors/lineKeys';

/**
 * PUT /api/monitors/{id}/line-key {"key_id": N} (a full key): hands the monitor to the line of key
 * N, the only line that may then pulse and change it by its slug (see handLineMonitor).
 */
export function monitorLineKeyRoutes({ store, events, clock, requireToken }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  router.use(requireToken);

  router.put('/api/monitors/:id/line-key', async (ctx) => {
    const id = pathId(ctx.params.id, 'Monitor');
    const { key_id: keyId } = validate(lineKeyInput, await readJsonBody(ctx));
    const outcome = handLineMonitor({ store, events }, ctx.state.companyId, id, keyId, clock());
    switch (outcome.kind) {
      case 'no-monitor':
        throw HttpError.notFound('Monitor');
      case 'no-key':
        throw HttpError.validation({ key_id: ['The key id field must name a live ping or full key of yours (GET /api/keys lists them).'] });
      case 'no-slug':
        throw new HttpError(409, "The monitor's name has no letter from a to z, so no line can name it: rename it first.");
      case 'slug-taken':
        throw new HttpError(409, `Another monitor already has the slug "${outcome.slug}": delete or hand over that one, or rename this one.`);
      case 'done': {
        const body: WireLineKey = { monitor_id: outcome.monitor.id, slug: outcome.monitor.slug!, key_id: keyId };
        ctx.body = body;
      }
    }
  });

  return router;
}
