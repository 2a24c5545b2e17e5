import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/errors';
import { pathId } from '../http/params';
import { presentServer, presentServerAlert, presentServerReport, presentNotification, withChannelIds } from '../present/present';
import { serverAlertHeaders, serverAlertInput, serverInput, serverListQuery, serverPatch } from '../../contract/servers';
import { checkChannelIds, createWithChannelIds, saveChannelIds } from '../present/channelIds';
import type { ServerRow } from '../../db/servers';
import type { ServerAlertRow } from '../../db/serverAlerts';
import type { ServerReportRow } from '../../db/serverReports';
import { validate } from '../http/validate';
import { queryParameters } from '../http/query';
import { serverAlertNotice } from '../../domain/servers/cronChangeNotice';
import { NOTIFICATION_KINDS } from '../../domain/alerts/notificationKinds';
import { tokenView } from '../present/tokenVisibility';
import { CreationBudgets } from '../../engine/monitors/monitorLines';
import { LINE_CREATIONS_PER_MINUTE } from '../../domain/monitors/lineLimits';

/** Whether a stored alert is the one `report` tells again (a retry under the same Idempotency-Key). */
function sameServerAlert(stored: ServerAlertRow, report: { username: string; command: string; change: string; previousCommand: string | null }): boolean {
  return stored.username === report.username && stored.command === report.command && stored.change === report.change && stored.previous_command === report.previousCommand;
}

export function serverRoutes({ store, events, clock, requireToken }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  router.use(requireToken);
  // Each alert is stored with its notification and deliveries, and the key on a server is the one most
  // easily stolen: a key's alerts are bounded as its lines' new monitors are (30 a minute), so none fills the disk.
  const alertBudgets = new CreationBudgets();
  const findServer = (companyId: number, raw: string | undefined) => {
    const server = store.servers.find(companyId, pathId(raw, 'Server'));
    if (!server) throw HttpError.notFound('Server');
    return server;
  };
  // Every server answer: the server, the channels it alerts, and its watcher's last report.
  const present = (
    row: ServerRow,
    channelIds = store.channelRoutes.channelIds({ type: 'server', id: row.id }),
    report: ServerReportRow | null = store.serverReports.find(row.id),
    now = clock(),
  ) => ({ ...withChannelIds(presentServer(row), channelIds), ...presentServerReport(report, now) });

  router.get('/api/servers', (ctx) => {
    const { q } = validate(serverListQuery, queryParameters(ctx.query));
    const needle = q?.trim().toLowerCase() ?? '';
    const { companyId } = ctx.state;
    const routes = store.channelRoutes.channelIdsOfType(companyId, 'server');
    const reports = store.serverReports.ofCompany(companyId);
    const now = clock();
    const servers = store.servers.list(companyId);
    const matching = needle
      ? servers.filter((s) => [s.name, s.identifier, s.ip_address].some((field) => field.toLowerCase().includes(needle)))
      : servers;
    const view = tokenView(store, ctx.state.scope);
    ctx.body = matching.map((row) => view.named(present(row, routes.get(row.id) ?? null, reports.get(row.id) ?? null, now)));
  });

  router.post('/api/servers', async (ctx) => {
    const input = validate(serverInput, await readJsonBody(ctx));
    const { companyId } = ctx.state;
    if (store.servers.findByIdentifier(companyId, input.identifier)) {
      throw HttpError.validation({ identifier: ['The identifier has already been taken.'] });
    }
    const server = createWithChannelIds(store, companyId, 'server', input.channel_ids, () =>
      store.servers.create({ companyId, name: input.name, identifier: input.identifier, ipAddress: input.ip_address, now: clock() }),
    );
    events.emit({ type: 'server.changed', companyId, serverId: server.id });
    ctx.status = 201;
    ctx.body = present(server);
  });

  router.post('/api/servers/alert', async (ctx) => {
    const { 'idempotency-key': key } = validate(serverAlertHeaders, ctx.headers);
    const input = validate(serverAlertInput, await readJsonBody(ctx));
    const { companyId } = ctx.state;
    const server = store.servers.findByIdentifier(companyId, input.server_id);
    if (!server) throw new HttpError(404, `No server has the identifier "${input.server_id}".`);
    const now = clock();
    const report = { username: input.username, command: input.command, change: input.change, previousCommand: input.previous_command };
    const { alert, notification, repeated } = store.db.transaction(() => {
      // A retry of an alert stored already (its answer was lost on the way) is answered as the first, and raises nothing.
      const first = key === null ? undefined : store.serverAlerts.withKey(server.id, key);
      if (first) {
        if (!sameServerAlert(first, report)) throw HttpError.validation({ 'idempotency-key': ['The Idempotency-Key was already used for a different alert of this server.'] });
        return { alert: first, notification: first.notification_id === null ? null : store.notifications.find(companyId, first.notification_id), repeated: true };
      }
      const wait = Math.ceil(alertBudgets.wait(ctx.state.tokenId, now) / 1000);
      if (wait > 0) {
        throw new HttpError(429, `This key's server alerts may be ${LINE_CREATIONS_PER_MINUTE} a minute; this one was not stored. Try again in ${wait} s.`, undefined, {
          'Retry-After': String(wait),
        });
      }
      alertBudgets.spend(ctx.state.tokenId, now);
      const made = store.notifications.create({ companyId, type: NOTIFICATION_KINDS.serverAlert.type, ...serverAlertNotice(server, report, now), now });
      return { alert: store.serverAlerts.create({ companyId, serverId: server.id, ...report, now, idempotencyKey: key, notificationId: made.id }), notification: made, repeated: false };
    })();
    if (!repeated && notification) events.emit({ type: 'notification.created', companyId, notificationId: notification.id });
    ctx.status = 201;
    // The watcher's ping key reads the server's name in the notification: a token a person wrote into it stays hidden.
    const view = tokenView(store, ctx.state.scope);
    ctx.body = { message: 'Alert received', alert: view.serverAlert(presentServerAlert(alert)), notification: notification ? view.notification(presentNotification(notification)) : null };
  });

  router.get('/api/servers/:id', (ctx) => {
    ctx.body = tokenView(store, ctx.state.scope).named(present(findServer(ctx.state.companyId, ctx.params.id)));
  });

  router.patch('/api/servers/:id', async (ctx) => {
    const { companyId } = ctx.state;
    findServer(companyId, ctx.params.id);
    const { channel_ids: channelIds, ...input } = validate(serverPatch, await readJsonBody(ctx));
    // Read again once the body is in: another edit may have come meanwhile, and this one is compared with it.
    const server = findServer(companyId, ctx.params.id);
    const next = {
      name: input.name ?? server.name,
      identifier: input.identifier ?? server.identifier,
      ipAddress: input.ip_address ?? server.ip_address,
      now: clock(),
    };
    const holder = store.servers.findByIdentifier(companyId, next.identifier);
    if (holder && holder.id !== server.id) {
      throw HttpError.validation({ identifier: ['The identifier has already been taken.'] });
    }
    checkChannelIds(store, companyId, channelIds);
    const edited = store.db.transaction(() => {
      const channelsChanged = saveChannelIds(store, companyId, { type: 'server', id: server.id }, channelIds);
      // Values it has already are no edit, as an Eloquent model saved clean is not touched: updated_at stays.
      const fieldsChanged = next.name !== server.name || next.identifier !== server.identifier || next.ipAddress !== server.ip_address;
      if (fieldsChanged || channelsChanged) store.servers.edit(companyId, server.id, next);
      return fieldsChanged || channelsChanged;
    })();
    if (edited) events.emit({ type: 'server.changed', companyId, serverId: server.id });
    ctx.body = present(findServer(companyId, ctx.params.id));
  });

  router.get('/api/servers/:id/alerts', (ctx) => {
    const server = findServer(ctx.state.companyId, ctx.params.id);
    const view = tokenView(store, ctx.state.scope);
    ctx.body = store.serverAlerts.listForServer(ctx.state.companyId, server.id).map((alert) => view.serverAlert(presentServerAlert(alert)));
  });

  router.delete('/api/servers/:id', (ctx) => {
    const { companyId } = ctx.state;
    const id = pathId(ctx.params.id, 'Server');
    if (!store.servers.delete(companyId, id, clock())) throw HttpError.notFound('Server');
    events.emit({ type: 'server.changed', companyId, serverId: id, deleted: true });
    ctx.status = 204;
  });

  return router;
}
