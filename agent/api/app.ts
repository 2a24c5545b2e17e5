import type { RequestListener } from 'node:http';
import Koa from 'koa';
import type Router from '@koa/router';
import { requireToken } from './http/auth';
import { FailedAuthLimiter } from './http/authLimiter';
import type { AuthState } from './http/auth';
import type { ApiDeps } from './deps';
import { errorMiddleware } from './http/errorMiddleware';
import { holdWrites } from './http/holdWrites';
import { hostGuard } from './http/hostGuard';
import { securityHeaders } from './http/securityHeaders';
import { corsPolicy } from './http/cors';
import { HttpError } from './http/errors';
import { literalPathMethods } from './http/literalPaths';
import { serverRoutes } from './routes/servers';
import { serverReportRoutes } from './routes/serverReports';
import { monitorRoutes } from './routes/monitors';
import { monitorLineKeyRoutes } from './routes/monitorLineKeys';
import { notificationRoutes } from './routes/notifications';
import { pulseHistoryRoutes, pulseRoutes } from './routes/pulses';
import { certificateRoutes } from './routes/certificates';
import { sessionRoutes } from './routes/session';
import { eventRoutes } from './routes/events';
import { cliRoutes } from './routes/cli';
import { staticFiles } from './routes/static';
import { agentInfoRoutes } from './routes/agentInfo';
import { channelRoutes } from './routes/channels';
import { channelReportRoutes } from './routes/channelReports';
import { healthRoutes } from './routes/health';
import { keyRoutes } from './routes/keys';
import { settingsRoutes } from './routes/settings';
import { metricsRoutes } from './routes/metrics';
import { badgeRoutes } from './routes/badges';
import { maintenanceWindowRoutes } from './routes/maintenanceWindows';
import { withPlainPulses } from './pulses/plainPulses';
import { createPulseRecorder } from '../engine/monitors/pulseBatch';
import { silentNotifier } from '../engine/popups/notifier';

export type AppOptions = Omit<ApiDeps, 'requireToken' | 'pulseRecorder'> & {
  /** The built dashboard served at "/"; default: dist/renderer next to the bundle or in the repository. */
  rendererDir?: string;
  /**
   * Behind a reverse proxy (`serve --trust-proxy`): the client's address comes from the last
   * X-Forwarded-For entry (the one the proxy added) and the scheme from X-Forwarded-Proto.
   * Without it those headers are ignored, since any client could send them.
   */
  trustProxy?: boolean;
  /** Requests that may write wait for this (the start-up check of the database, api/http/holdWrites.ts). */
  writesAllowed?: Promise<void>;
};

// One line per resource router; order only matters for routes that could match the same path.
export const routers: Array<(deps: ApiDeps) => Router<AuthState> | Router> = [
  healthRoutes,
  pulseRoutes,
  pulseHistoryRoutes,
  // Before serverRoutes, whose /api/servers/:id would answer POST /api/servers/heartbeat with 405.
  serverReportRoutes,
  serverRoutes,
  monitorRoutes,
  monitorLineKeyRoutes,
  notificationRoutes,
  certificateRoutes,
  channelRoutes,
  channelReportRoutes,
  maintenanceWindowRoutes,
  keyRoutes,
  metricsRoutes,
  badgeRoutes,
  sessionRoutes,
  eventRoutes,
  agentInfoRoutes,
  settingsRoutes,
  cliRoutes,
];

/**
 * The agent's request listener: plain pulses answered beside Koa (plainPulses.ts), and the Koa
 * app for everything else: JSON errors, every resource router, and a JSON 404 for anything else.
 */
export function createApp(options: AppOptions): RequestListener {
  const { store, events, clock, log } = options;
  const pulseRecorder = createPulseRecorder({ store, events, notifier: options.notifier ?? silentNotifier });
  const authLimiter = options.authLimiter ?? new FailedAuthLimiter();
  const deps: ApiDeps = { ...options, authLimiter, requireToken: requireToken(store, clock, authLimiter), pulseRecorder };
  const app = new Koa();
  app.silent = true;
  if (options.trustProxy) {
    app.proxy = true;
    // The last address is the one our proxy saw; earlier ones are whatever the client claimed.
    app.maxIpsCount = 1;
  }
  app.use(securityHeaders());
  app.use(errorMiddleware(deps.log));
  app.use(hostGuard(options.boundHost ?? '127.0.0.1', options.allowedHosts, options.trustProxy, () => options.publicUrl?.current() ?? null));
  app.use(corsPolicy());
  if (options.writesAllowed) app.use(holdWrites(options.writesAllowed));
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body == null) throw new HttpError(404, 'Not found.');
    // The routers answer a known path asked with another method (501 for one no route has, such
    // as PROPFIND) with the path's methods in Allow, as HTTP requires of a 405, and no body.
    if ((ctx.status === 405 || ctx.status === 501) && ctx.body == null) {
      const allow = ctx.response.get('Allow');
      if (!allow) throw new HttpError(404, 'Not found.');
      throw new HttpError(405, 'Method Not Allowed', undefined, { Allow: allow });
    }
  });
  const built = routers.map((make) => make(deps));
  app.use(literalPathMethods(built));
  for (const router of built) app.use(router.routes()).use(router.allowedMethods());
  app.use(staticFiles(options.rendererDir));
  return withPlainPulses(app.callback(), { recorder: pulseRecorder, clock, log, writesAllowed: options.writesAllowed, trustProxy: options.trustProxy });
}
