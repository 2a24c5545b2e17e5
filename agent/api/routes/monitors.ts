import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { ApiDeps, AuthedRouter } from '../deps';
import { readJsonBody } from '../body';
import { HttpError } from '../errors';
import { pathId } from '../params';
import { presentMonitor, withChannelIds } from '../present';
import { channelIdsPatch, monitorInput } from '../schemas';
import { checkChannelIds, saveChannelIds } from '../channelIds';
import type { MonitorRow } from '../../db/monitors';
import { validate } from '../validate';
import { requestOrigin } from '../paging';
import { newMonitorTiming } from '../../domain/dueTime';

export function monitorRoutes({ store, events, clock, requireToken }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router();
  router.use(requireToken);
  const present = (row: MonitorRow, origin: string, channelIds = store.channelRoutes.channelIds({ type: 'monitor', id: row.id })) =>
    withChannelIds(presentMonitor(row, origin), channelIds);

  router.get('/api/monitors', (ctx) => {
    const routes = store.channelRoutes.channelIdsOfType(ctx.state.companyId, 'monitor');
    ctx.body = store.monitors.list(ctx.state.companyId).map((row) => present(row, requestOrigin(ctx), routes.get(row.id) ?? null));
  });

  router.post('/api/monitors', async (ctx) => {
    const input = validate(monitorInput, await readJsonBody(ctx));
    const { companyId } = ctx.state;
    checkChannelIds(store, companyId, input.channel_ids);
    const now = clock();
    const spec = { schedule: input.schedule, timezone: input.timezone, durationMinutes: input.duration };
    const monitor = store.db.transaction(() => {
      const created = store.monitors.create({
      companyId,
      name: input.name,
      projectId: input.project_id,
      token: randomUUID(),
      timezone: input.timezone,
      schedule: input.schedule,
      duration: input.duration,
      ...newMonitorTiming(spec, now),
      now,
      });
      saveChannelIds(store, companyId, { type: 'monitor', id: created.id }, input.channel_ids);
      return created;
    })();
    events.emit({ type: 'monitor.changed', companyId, monitorId: monitor.id });
    ctx.status = 201;
    ctx.body = present(monitor, requestOrigin(ctx));
  });

  router.get('/api/monitors/:id', (ctx) => {
    const monitor = store.monitors.find(ctx.state.companyId, pathId(ctx.params.id, 'Monitor'));
    if (!monitor) throw HttpError.notFound('Monitor');
    ctx.body = present(monitor, requestOrigin(ctx));
  });

  // channel_ids PATCH: merged into the full PATCH of the living branch
  router.patch('/api/monitors/:id', async (ctx) => {
    const { companyId } = ctx.state;
    const monitor = store.monitors.find(companyId, pathId(ctx.params.id, 'Monitor'));
    if (!monitor) throw HttpError.notFound('Monitor');
    const input = validate(channelIdsPatch, await readJsonBody(ctx));
    checkChannelIds(store, companyId, input.channel_ids);
    saveChannelIds(store, companyId, { type: 'monitor', id: monitor.id }, input.channel_ids);
    events.emit({ type: 'monitor.changed', companyId, monitorId: monitor.id });
    ctx.body = present(monitor, requestOrigin(ctx));
  });

  router.delete('/api/monitors/:id', (ctx) => {
    const { companyId } = ctx.state;
    const id = pathId(ctx.params.id, 'Monitor');
    if (!store.monitors.delete(companyId, id, clock())) throw HttpError.notFound('Monitor');
    events.emit({ type: 'monitor.changed', companyId, monitorId: id });
    ctx.status = 204;
  });

  return router;
}
