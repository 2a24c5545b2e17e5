import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/errors';
import { presentServer, presentServerReport } from '../present/present';
import { serverHeartbeatInput } from '../../contract/servers';
import { recordServerReport } from '../../engine/servers/quietServers';
import { silentNotifier } from '../../engine/popups/notifier';
import { validate } from '../http/validate';
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
  return router;
}
