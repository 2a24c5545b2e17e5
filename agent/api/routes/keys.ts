import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import { onlyFullKeys } from '../http/auth';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/errors';
import { pathId } from '../http/params';
import { validate } from '../http/validate';
import { keyInput, keyPatch, type WireKey } from '../../contract/keys';
import { maxLineMonitors } from '../../domain/monitors/lineLimits';
import type { ApiTokenRow } from '../../db/apiTokens';
import { toApiTimestamp, toNullableApiTimestamp } from '../../domain/time/apiTimestamps';
import { revokeKey } from '../../db/keyRevocation';

const presentKey = (row: ApiTokenRow): WireKey => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  created_at: toApiTimestamp(row.created_at),
  last_used_at: toNullableApiTimestamp(row.last_used_at),
  max_monitors: maxLineMonitors(row.max_monitors),
});

/**
 * The company's API keys, for a full key only: GET /api/keys lists the live ones with
 * their last use, POST /api/keys makes one and shows its secret once, DELETE /api/keys/{id}
 * revokes one at once; PATCH /api/keys/{id} sets how many monitors its lines may make.
 */
export function keyRoutes({ store, events, clock, requireToken }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  router.use(requireToken, onlyFullKeys);

  router.get('/api/keys', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = store.apiTokens.listLive(ctx.state.companyId).map(presentKey);
  });

  router.post('/api/keys', async (ctx) => {
    const input = validate(keyInput, await readJsonBody(ctx));
    const { companyId } = ctx.state;
    const { id, token } = store.apiTokens.create({ companyId, name: input.name, scope: input.scope, maxMonitors: input.max_monitors ?? null, now: clock() });
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...presentKey(store.apiTokens.findLive(companyId, id)!), key: token };
  });

  router.patch('/api/keys/:id', async (ctx) => {
    const id = pathId(ctx.params.id, 'Key');
    // A key not there is a 404 before its body is read, as every other PATCH answers.
    if (!store.apiTokens.findLive(ctx.state.companyId, id)) throw HttpError.notFound('Key');
    const input = validate(keyPatch, await readJsonBody(ctx));
    if (!store.apiTokens.setMaxMonitors(ctx.state.companyId, id, input.max_monitors)) throw HttpError.notFound('Key');
    ctx.set('Cache-Control', 'no-store');
    ctx.body = presentKey(store.apiTokens.findLive(ctx.state.companyId, id)!);
  });

  router.delete('/api/keys/:id', (ctx) => {
    const id = pathId(ctx.params.id, 'Key');
    const { companyId } = ctx.state;
    const rotated = revokeKey(store, id, clock(), companyId);
    if (rotated === null) throw HttpError.notFound('Key');
    events.emit({ type: 'key.revoked', companyId, tokenId: id });
    for (const monitorId of rotated) events.emit({ type: 'monitor.changed', companyId, monitorId });
    ctx.status = 204;
  });

  return router;
}
