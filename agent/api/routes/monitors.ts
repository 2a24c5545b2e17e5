import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type { ApiDeps, AuthedRouter } from '../deps';
import { readJsonBody } from '../body';
import { HttpError } from '../errors';
import { pathId } from '../params';
import { presentMonitor } from '../present';
import { monitorInput } from '../schemas';
import { validate } from '../validate';
import { requestOrigin } from '../paging';
import { newMonitorTiming } from '../../domain/dueTime';

export function monitorRoutes({ store, events, clock, requireToken }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router();
  router.use(requireToken);

  router.get('/api/monitors', (ctx) => {
    ctx.body = store.monitors.list(ctx.state.companyId).map((row) => presentMonitor(row, requestOrigin(ctx)));
  });

  router.post('/api/monitors', async (ctx) => {
    const input = validate(monitorInput, await readJsonBody(ctx));
    const { companyId } = ctx.state;
    const now = clock();
    const spec = { schedule: input.schedule, timezone: input.timezone, durationMinutes: input.duration };
    const monitor = store.monitors.create({
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
    events.emit({ type: 'monitor.changed', companyId, monitorId: monitor.id });
    ctx.status = 201;
    ctx.body = presentMonitor(monitor, requestOrigin(ctx));
  });

  router.get('/api/monitors/:id', (ctx) => {
    const monitor = store.monitors.find(ctx.state.companyId, pathId(ctx.params.id, 'Monitor'));
    if (!monitor) throw HttpError.notFound('Monitor');
    ctx.body = presentMonitor(monitor, requestOrigin(ctx));
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
