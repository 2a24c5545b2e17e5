import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/errors';
import { pathId } from '../http/params';
import { presentMaintenanceWindow } from '../present/present';
import { pageRequestFrom, requestUrl, respondWithPage } from '../http/paging';
import { validate } from '../http/validate';
import { queryParameters } from '../http/query';
import { pageQuery } from '../../contract/paging';
import {
  maintenanceWindowInput,
  maintenanceWindowListQuery,
  maintenanceWindowPatch,
  windowShapeErrors,
  type WindowFields,
} from '../../contract/maintenanceWindows';
import { windowOf, type MaintenanceWindowRow } from '../../db/maintenanceWindows';
import { tagsOf } from '../../db/monitorLines';
import { coversMonitor, nextStart, windowEnd } from '../../domain/maintenance/windows';
import { pageOffset } from '../../domain/formats/pagination';
import type { Store } from '../../db/store';
import { replanAfterWindowChange } from '../../engine/monitors/maintenance';
import { replanQuietAfterWindowChange } from '../../engine/servers/quietServers';
import { tokenView } from '../present/tokenVisibility';

type Body = ReturnType<typeof maintenanceWindowInput.parse>;

/** The stored fields of a row, for a patch to change some of. */
function fieldsOf(row: MaintenanceWindowRow): WindowFields {
  const window = windowOf(row);
  return {
    name: row.name,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    schedule: row.schedule,
    timezone: row.timezone,
    durationMinutes: row.duration,
    monitorIds: [...window.monitorIds],
    tags: [...window.tags],
  };
}

/**
 * Refuses a window that is not whole (windowShapeErrors), whose times the body gives end in the
 * past or whose schedule it gives never opens again, or whose monitor ids the body gives include one
 * the company does not have, other than those the window already names (`kept`): a monitor deleted
 * since does not make every edit of it fail, nor a client that sends the ids back as it read them.
 */
function checkWindow(store: Store, companyId: number, fields: WindowFields, body: Body, now: number, kept: readonly number[] = []): WindowFields {
  const errors = windowShapeErrors(fields, now);
  if (Object.keys(errors).length > 0) throw HttpError.validation(errors);
  // Times given that end in the past (a year mistyped) would cover nothing, as a snooze that has
  // ended would pause nothing; a window that ended may still be renamed.
  const timesGiven = body.starts_at !== undefined || body.ends_at !== undefined;
  if (timesGiven && fields.endsAt !== null && fields.endsAt <= now) {
    throw HttpError.validation({ ends_at: ['The ends at field must be a time in the future: a window that has ended covers nothing.'] });
  }
  // So would a calendar event given that never elapses again (a date gone by, 30 February).
  const scheduleGiven = body.schedule !== undefined || body.timezone !== undefined;
  if (scheduleGiven && fields.schedule !== null && nextStart(fields, now) === null) {
    throw HttpError.validation({ schedule: ['The schedule field names no time to come (systemd would say "never"), so the window would never open.'] });
  }
  const given = body.monitor_ids;
  const unknown = (given ?? []).filter((id) => !kept.includes(id) && !store.monitors.find(companyId, id));
  if (unknown.length > 0) {
    throw HttpError.validation({ monitor_ids: [`The monitor ids field names no monitor with the id ${unknown.join(', ')}.`] });
  }
  return normalised(fields);
}

/** The fields as they are stored: ids and tags sorted, without repeats. */
function normalised(fields: WindowFields): WindowFields {
  return { ...fields, monitorIds: [...new Set(fields.monitorIds)].sort((a, b) => a - b), tags: [...new Set(fields.tags)].sort() };
}

/** `base` with the fields the body names (null clears a time or a recurring field, so a window can change kind). */
function merged(base: WindowFields, body: Body): WindowFields {
  const pick = <T>(value: T | null | undefined, was: T | null): T | null => (value === undefined ? was : value);
  return {
    name: body.name === undefined ? base.name : (body.name ?? ''),
    startsAt: pick(body.starts_at, base.startsAt),
    endsAt: pick(body.ends_at, base.endsAt),
    schedule: pick(body.schedule, base.schedule),
    timezone: pick(body.timezone, base.timezone),
    durationMinutes: pick(body.duration, base.durationMinutes),
    monitorIds: body.monitor_ids === undefined ? base.monitorIds : (body.monitor_ids ?? []),
    tags: body.tags === undefined ? base.tags : (body.tags ?? []),
  };
}

const EMPTY: WindowFields = { name: '', startsAt: null, endsAt: null, schedule: null, timezone: null, durationMinutes: null, monitorIds: [], tags: [] };

/** Maintenance windows: Cronbeat's own resource (docs/api.md), paginated as the spec's lists are. */
export function maintenanceWindowRoutes({ store, events, clock, requireToken }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  router.use(requireToken);
  /** Changes a window with `change`, then plans again the monitors it held longer than it now does. */
  const changeWindow = <T>(row: MaintenanceWindowRow, now: number, change: () => T): T => {
    const { result, replanned, servers } = store.db.transaction(() => {
      const result = change();
      const replanned = replanAfterWindowChange({ store }, row.company_id, windowOf(row), now);
      // A certificate whose news a window held is checked again now: told at once if the window no longer holds it.
      store.certificates.recheckHeld(row.company_id, now);
      return { result, replanned, servers: replanQuietAfterWindowChange({ store }, row.company_id, windowOf(row), now) };
    })();
    for (const monitor of replanned) events.emit({ type: 'monitor.changed', companyId: monitor.company_id, monitorId: monitor.id });
    for (const serverId of servers) events.emit({ type: 'server.changed', companyId: row.company_id, serverId });
    return result;
  };
  const findWindow = (companyId: number, raw: string | undefined) => {
    const row = store.maintenanceWindows.find(companyId, pathId(raw, 'Maintenance window'));
    if (!row) throw HttpError.notFound('Maintenance window');
    return row;
  };

  router.get('/api/maintenance-windows', (ctx) => {
    const query = queryParameters(ctx.query);
    const { monitor_id: monitorId, active } = validate(maintenanceWindowListQuery, { monitor_id: query.monitor_id, active: query.active });
    const { request, keptQuery } = pageRequestFrom(validate(pageQuery, { page: query.page, per_page: query.per_page }));
    const { companyId } = ctx.state;
    const now = clock();
    let rows = store.maintenanceWindows.list(companyId);
    if (monitorId !== undefined) {
      const monitor = store.monitors.find(companyId, monitorId);
      if (!monitor) throw HttpError.validation({ monitor_id: [`The monitor id field names no monitor with the id ${monitorId}.`] });
      const covered = { id: monitor.id, tags: tagsOf(monitor) };
      rows = rows.filter((row) => coversMonitor(windowOf(row), covered));
      keptQuery.monitor_id = String(monitorId);
    }
    if (active !== undefined) {
      rows = rows.filter((row) => (windowEnd(windowOf(row), now) !== null) === (active === 'true'));
      keptQuery.active = active;
    }
    const page = rows.slice(pageOffset(request), pageOffset(request) + request.perPage);
    respondWithPage(ctx, {
      data: page.map((row) => tokenView(store, ctx.state.scope).named(presentMaintenanceWindow(row, now))),
      total: rows.length,
      request,
      path: requestUrl(ctx),
      keptQuery,
    });
  });

  router.post('/api/maintenance-windows', async (ctx) => {
    const body = validate(maintenanceWindowInput, await readJsonBody(ctx));
    const { companyId } = ctx.state;
    const now = clock();
    const fields = checkWindow(store, companyId, merged(EMPTY, body), body, now);
    const made = store.maintenanceWindows.create(companyId, fields, now);
    events.emit({ type: 'maintenance.changed', companyId, windowId: made.id });
    ctx.status = 201;
    ctx.body = presentMaintenanceWindow(made, now);
  });

  router.get('/api/maintenance-windows/:id', (ctx) => {
    ctx.body = tokenView(store, ctx.state.scope).named(presentMaintenanceWindow(findWindow(ctx.state.companyId, ctx.params.id), clock()));
  });

  router.patch('/api/maintenance-windows/:id', async (ctx) => {
    const { companyId } = ctx.state;
    findWindow(companyId, ctx.params.id);
    const body = validate(maintenanceWindowPatch, await readJsonBody(ctx));
    // Read again once the body is in: another edit may have come meanwhile, and this one is merged over it.
    const row = findWindow(companyId, ctx.params.id);
    const now = clock();
    const before = fieldsOf(row);
    const fields = checkWindow(store, companyId, merged(before, body), body, now, before.monitorIds);
    // Values it has already are no edit, as an Eloquent model saved clean is not touched: updated_at stays.
    if (JSON.stringify(fields) === JSON.stringify(normalised(before))) {
      ctx.body = presentMaintenanceWindow(row, now);
      return;
    }
    const edited = changeWindow(row, now, () => store.maintenanceWindows.edit(companyId, row.id, fields, now)!);
    events.emit({ type: 'maintenance.changed', companyId, windowId: row.id });
    ctx.body = presentMaintenanceWindow(edited, now);
  });

  router.delete('/api/maintenance-windows/:id', (ctx) => {
    const row = findWindow(ctx.state.companyId, ctx.params.id);
    changeWindow(row, clock(), () => store.maintenanceWindows.delete(row.company_id, row.id));
    events.emit({ type: 'maintenance.changed', companyId: row.company_id, windowId: row.id, deleted: true });
    ctx.status = 204;
  });

  return router;
}
