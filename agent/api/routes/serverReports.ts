import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/errors';
import { presentServer, presentServerReport, presentServerWatcher } from '../present/present';
import { serverHeartbeatInput, serverWatcherQuery } from '../../contract/servers';
import { recordServerReport } from '../../engine/servers/quietServers';
import { silentNotifier } from '../../engine/popups/notifier';
import { validate } from '../http/validate';
import { pathId } from '../http/params';
import { tokenView } from '../present/tokenVisibility';

/*
 * POST /api/servers/heartbeat: `cronbeat crontab watch` reports with every snapshot, changed or
 * not, so a watcher that died shows as quiet in the servers list. At start it is also how the
 * watcher checks its token (401) and its server identifier (404) before watching anything.
 */
export function serverReportRoutes({ store, events, clock, requireToken, notifier = silentNotifier, adminZone }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  router.post('/api/servers/heartbeat', requireToken, async (ctx) => {
    const input = validate(serverHeartbeatInput, await readJsonBody(ctx));
    const { companyId } = ctx.state;
    const server = store.servers.findByIdentifier(companyId, input.server_id);
    if (!server) throw new HttpError(404, `No server has the identifier "${input.server_id}".`);
    const now = clock();
    // A report after a quiet stretch raises "reports again" (once): see agent/engine/servers/quietServers.ts.
    const report = recordServerReport({ store, events, notifier, adminZone }, server, { watcher: input.watcher, intervalSeconds: input.interval_seconds, jobs: input.jobs }, now);
    events.emit({ type: 'server.changed', companyId, serverId: server.id });
    // A ping key reads here the name a person gave the server, which may quote a pulse URL: not its token.
    ctx.body = tokenView(store, ctx.state.scope).named({ ...presentServer(server), ...presentServerReport(report, now) });
  });

  /*
   * A server's watchers, each quiet on its own: the server is quiet while any of them is, so one
   * stopped for good (or replaced by a watcher of other files, under another name) keeps it quiet
   * until it is forgotten here. Forgetting one that still runs is undone by its next report.
   */
  const findServer = (companyId: number, raw: string | undefined) => {
    const server = store.servers.find(companyId, pathId(raw, 'Server'));
    if (!server) throw HttpError.notFound('Server');
    return server;
  };
  router.get('/api/servers/:id/watchers', requireToken, (ctx) => {
    const server = findServer(ctx.state.companyId, ctx.params.id);
    const now = clock();
    ctx.body = store.serverReports.watchers(server.id).map((row) => presentServerWatcher(row, now));
  });
  router.delete('/api/servers/:id/watchers', requireToken, (ctx) => {
    const { companyId } = ctx.state;
    const server = findServer(companyId, ctx.params.id);
    const { watcher } = validate(serverWatcherQuery, ctx.query);
    if (!store.serverReports.forget(server.id, watcher)) throw new HttpError(404, `The server has no watcher "${watcher}".`);
    events.emit({ type: 'server.changed', companyId, serverId: server.id });
    ctx.status = 204;
  });
  return router;
}
