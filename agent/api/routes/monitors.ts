import type { Context } from 'koa';
import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/errors';
import { pathId } from '../http/params';
import { presentMonitor } from '../present/present';
import { alertAfterInput, maxRuntimeInput, monitorCreateInput, monitorListQuery, monitorPatch, pauseInput, type MonitorView } from '../../contract/monitors';
import { checkChannelIds, createWithChannelIds, saveChannelIds } from '../present/channelIds';
import { idOfShownMonitor, type ShownMonitorRow } from '../../db/shownMonitors';
import { monitorJsonMemo } from '../present/monitorJsonMemo';
import { seesPulseTokens } from '../../domain/access/keyScopes';
import { JsonArrayBytes } from '../../domain/formats/jsonArrayBytes';
import { validate } from '../http/validate';
import { queryParameters } from '../http/query';
import { noFields } from '../../contract/fields';
import { requestOrigin as originOfRequest } from '../http/paging';
import { newMonitorTiming } from '../../domain/monitors/dueTime';
import { editMonitor, pauseMonitor, resumeMonitor } from '../../engine/monitors/monitorEdits';
import { sortedTags } from '../../domain/monitors/ownLine';
import { tagsOf } from '../../db/monitorLines';
import { newPulseToken } from '../../db/monitorTokens';
import { toApiTimestamp } from '../../domain/time/apiTimestamps';
import { monitorStatus } from '../../domain/monitors/status';
import { tokenView } from '../present/tokenVisibility';

/** Rows the list reads at a time (shownMonitors.eachPage): a page's texts and rows can be collected before the next is read. */
const LIST_PAGE_ROWS = 1000;

export function monitorRoutes({ store, events, clock, requireToken, publicUrl }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  router.use(requireToken);
  // Pulse URLs (the dashboard's copy-paste lines) start with the public URL when one is set.
  const requestOrigin = (ctx: Context) => publicUrl?.current() ?? originOfRequest(ctx);
  const present = (row: ShownMonitorRow, origin: string, channelIds = store.channelRoutes.channelIds({ type: 'monitor', id: row.id })) =>
    presentMonitor(row, origin, channelIds);
  const found = <T>(monitor: T | null): T => {
    if (!monitor) throw HttpError.notFound('Monitor');
    return monitor;
  };

  // A full key's answers, kept from one listing to the next while their rows stay the same (monitorJsonMemo.ts says why that is safe, and how much it keeps).
  const memo = monitorJsonMemo();
  router.get('/api/monitors', (ctx) => {
    const { status, project_id: projectId, tag } = validate(monitorListQuery, queryParameters(ctx.query));
    const { companyId, scope } = ctx.state;
    const routes = store.channelRoutes.channelIdsOfType(companyId, 'monitor');
    const filtered = status !== undefined || projectId !== undefined || tag !== undefined;
    const listed = (row: ShownMonitorRow) =>
      (status === undefined || monitorStatus(row) === status) &&
      (projectId === undefined || row.project_id === projectId) &&
      (tag === undefined || tagsOf(row).includes(tag));
    const origin = requestOrigin(ctx);
    const view = tokenView(store, scope);
    const kept = seesPulseTokens(scope) ? memo.listing(companyId, origin, !filtered) : null;
    const answerOf = (row: ShownMonitorRow) => view.monitor(present(row, origin, routes.get(row.id) ?? null));
    const body = new JsonArrayBytes();
    store.shownMonitors.eachPage(companyId, LIST_PAGE_ROWS, (texts) => {
      // Answers made afresh, serialised together up to the next kept one.
      let made: MonitorView[] = [];
      for (const text of texts) {
        // An unfiltered list needs no row for a monitor whose answer is kept: its text says it is the same.
        const row = filtered ? store.shownMonitors.rowOf(text) : null;
        if (row !== null && !listed(row)) continue;
        const id = idOfShownMonitor(text);
        const same = kept?.answer(id, text, routes.get(id) ?? null, () => Buffer.from(JSON.stringify(answerOf(row ?? store.shownMonitors.rowOf(text)))));
        if (!same) {
          made.push(answerOf(row ?? store.shownMonitors.rowOf(text)));
          continue;
        }
        body.addRun(made);
        made = [];
        body.add(same);
      }
      body.addRun(made);
    });
    kept?.done();
    ctx.type = 'application/json';
    ctx.body = body.bytes();
  });

  router.post('/api/monitors', async (ctx) => {
    const input = validate(monitorCreateInput, await readJsonBody(ctx));
    const { companyId } = ctx.state;
    const now = clock();
    const spec = { schedule: input.schedule, timezone: input.timezone, durationMinutes: input.duration };
    const created = createWithChannelIds(store, companyId, 'monitor', input.channel_ids, () =>
      store.monitors.create({
        companyId,
        name: input.name,
        projectId: input.project_id,
        token: randomUUID(),
        timezone: input.timezone,
        schedule: input.schedule,
        duration: input.duration,
        ...newMonitorTiming(spec, now),
        now,
      }),
    );
    if (input.tags?.length) store.monitorLines.setTags(created.id, sortedTags(input.tags), now);
    const monitor = input.tags?.length ? found(store.monitors.find(companyId, created.id)) : created;
    events.emit({ type: 'monitor.changed', companyId, monitorId: monitor.id });
    ctx.status = 201;
    ctx.body = present(monitor, requestOrigin(ctx));
  });

  router.get('/api/monitors/:id', (ctx) => {
    const monitor = store.monitors.find(ctx.state.companyId, pathId(ctx.params.id, 'Monitor'));
    if (!monitor) throw HttpError.notFound('Monitor');
    ctx.body = tokenView(store, ctx.state.scope).monitor(present(monitor, requestOrigin(ctx)));
  });

  // Who changed the monitor's settings, when, from what to what (the API or the job's line), newest first.
  router.get('/api/monitors/:id/changes', (ctx) => {
    const monitor = found(store.monitors.find(ctx.state.companyId, pathId(ctx.params.id, 'Monitor')));
    // What a field was is shown as the field itself is: a name or tag that once quoted a pulse URL hides its token.
    const view = tokenView(store, ctx.state.scope);
    ctx.body = store.monitorLines.changes(monitor.id).map((change) => ({
      id: change.id,
      at: toApiTimestamp(change.at),
      source: change.source,
      changes: view.json(JSON.parse(change.changes) as unknown),
    }));
  });

  router.patch('/api/monitors/:id', async (ctx) => {
    const id = pathId(ctx.params.id, 'Monitor');
    found(store.monitors.find(ctx.state.companyId, id));
    const { channel_ids: channelIds, ...changes } = validate(monitorPatch, await readJsonBody(ctx));
    checkChannelIds(store, ctx.state.companyId, channelIds);
    const monitor = store.db.transaction(() => {
      const channelsChanged = saveChannelIds(store, ctx.state.companyId, { type: 'monitor', id }, channelIds);
      return found(editMonitor({ store, events }, ctx.state.companyId, id, changes, clock(), 'api', channelsChanged));
    })();
    ctx.body = present(monitor, requestOrigin(ctx));
  });

  router.post('/api/monitors/:id/pause', async (ctx) => {
    const id = pathId(ctx.params.id, 'Monitor');
    found(store.monitors.find(ctx.state.companyId, id));
    const { until } = validate(pauseInput, await readJsonBody(ctx));
    const now = clock();
    if (until !== null && until <= now) {
      throw HttpError.validation({ until: ['The until field must be a time in the future.'] });
    }
    const monitor = found(pauseMonitor({ store, events }, ctx.state.companyId, id, until, now));
    ctx.body = present(monitor, requestOrigin(ctx));
  });

  // Cronbeat's own: how long a started run may take before it is stuck (docs/monitoring.md, "Max run time").
  router.put('/api/monitors/:id/max-runtime', async (ctx) => {
    const id = pathId(ctx.params.id, 'Monitor');
    found(store.monitors.find(ctx.state.companyId, id));
    const { max_runtime } = validate(maxRuntimeInput, await readJsonBody(ctx));
    const monitor = found(editMonitor({ store, events }, ctx.state.companyId, id, { max_runtime }, clock()));
    ctx.body = present(monitor, requestOrigin(ctx));
  });

  // Cronbeat's own: the failure in a row that alerts (docs/monitoring.md, "Alert after N failures").
  router.put('/api/monitors/:id/alert-after', async (ctx) => {
    const id = pathId(ctx.params.id, 'Monitor');
    found(store.monitors.find(ctx.state.companyId, id));
    const { alert_after } = validate(alertAfterInput, await readJsonBody(ctx));
    const monitor = found(editMonitor({ store, events }, ctx.state.companyId, id, { alert_after }, clock()));
    ctx.body = present(monitor, requestOrigin(ctx));
  });

  router.post('/api/monitors/:id/resume', async (ctx) => {
    const id = pathId(ctx.params.id, 'Monitor');
    validate(noFields, await readJsonBody(ctx));
    const monitor = found(resumeMonitor({ store, events }, ctx.state.companyId, id, clock()));
    ctx.body = present(monitor, requestOrigin(ctx));
  });

  // A leaked token is undone here: a new one, and the old one is refused by both pulse doors from now on.
  router.post('/api/monitors/:id/token', async (ctx) => {
    const { companyId } = ctx.state;
    const id = pathId(ctx.params.id, 'Monitor');
    validate(noFields, await readJsonBody(ctx));
    const now = clock();
    const rotated = store.db.transaction(() => newPulseToken(store, companyId, id, now))();
    if (!rotated) throw HttpError.notFound('Monitor');
    events.emit({ type: 'monitor.changed', companyId, monitorId: id });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = present(found(store.monitors.find(companyId, id)), requestOrigin(ctx));
  });

  router.delete('/api/monitors/:id', (ctx) => {
    const { companyId } = ctx.state;
    const id = pathId(ctx.params.id, 'Monitor');
    if (!store.monitors.delete(companyId, id, clock())) throw HttpError.notFound('Monitor');
    events.emit({ type: 'monitor.changed', companyId, monitorId: id, deleted: true });
    ctx.status = 204;
  });

  return router;
}
