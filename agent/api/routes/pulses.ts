import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { Context } from 'koa';
import type { ApiDeps, AuthedRouter } from '../deps';
import { HttpError } from '../http/errors';
import { pageRequestFrom, requestUrl, respondWithPage } from '../http/paging';
import { pathId } from '../http/params';
import { presentPulse } from '../present/present';
import { pageQuery } from '../../contract/paging';
import { validate } from '../http/validate';
import { queryParameters } from '../http/query';
import { pageOffset } from '../../domain/formats/pagination';
import { keyReusedAs422, pulseIntent, readPulseBody, receivedPulse } from '../pulses/pulseRequest';
import { lineMonitor, MONITOR_TOKEN_HEADER } from '../pulses/linePulse';
import { CreationBudgets } from '../../engine/monitors/monitorLines';
import { tokenView } from '../present/tokenVisibility';

/**
 * Pulses: GET, POST or HEAD /api/pulse/{token}[/start|/fail|/{exit_code}][?rid=…]. No
 * Authorization: the monitor's token is the secret. Answers a short "OK" once recorded.
 * A job's line pulses /api/pulse/key/{ping_key}/{slug}[/…] instead, which finds or creates its
 * monitor (linePulse.ts), answers 201 "OK (created)" when it created it, and names the monitor's
 * token in X-Cronbeat-Monitor-Token.
 */
export function pulseRoutes({ store, events, clock, pulseRecorder, authLimiter }: ApiDeps): Router {
  const router = new Router(ROUTER_OPTIONS);
  const budgets = new CreationBudgets();

  const receivePulse = async (ctx: Context, byLine: boolean) => {
    const intent = pulseIntent(ctx.params.action, ctx.query, ctx.headers);
    // The body first: a line's pulse sets its monitor up, which a request cut off before its end must not do.
    const { body, truncated } = ctx.method === 'POST' ? await readPulseBody(ctx.req) : { body: '', truncated: false };
    const line = byLine ? lineMonitor(ctx, { store, events, authLimiter }, budgets, clock(), intent) : null;
    const token = line ? line.monitor.token : ctx.params.token;
    const now = clock();
    const pulse = receivedPulse(intent, { token, method: ctx.method, remoteAddress: ctx.request.ip ?? '', body, bodyTruncated: truncated }, now);
    if (!(await pulseRecorder.record(pulse, now).catch(keyReusedAs422))) throw HttpError.notFound('Monitor');
    ctx.type = 'text/plain';
    ctx.body = 'OK';
    if (line) {
      ctx.set(MONITOR_TOKEN_HEADER, line.monitor.token);
      if (line.created) {
        ctx.status = 201;
        ctx.body = 'OK (created)';
      }
    }
  };
  const receive = (ctx: Context) => receivePulse(ctx, false);
  const receiveByLine = (ctx: Context) => receivePulse(ctx, true);

  // Before the token routes: /api/pulse/key/… must never be read as a token "key".
  router.get('/api/pulse/key/:key/:slug', receiveByLine);
  router.post('/api/pulse/key/:key/:slug', receiveByLine);
  router.get('/api/pulse/key/:key/:slug/:action', receiveByLine);
  router.post('/api/pulse/key/:key/:slug/:action', receiveByLine);

  router.get('/api/pulse/:token', receive); // GET also answers HEAD
  router.post('/api/pulse/:token', receive);
  router.get('/api/pulse/:token/:action', receive);
  router.post('/api/pulse/:token/:action', receive);
  return router;
}

/** The run history of a monitor: GET /api/monitors/{id}/pulses, newest first, paginated like notifications. */
export function pulseHistoryRoutes({ store, requireToken }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  router.use(requireToken);

  router.get('/api/monitors/:id/pulses', (ctx) => {
    const monitor = store.monitors.find(ctx.state.companyId, pathId(ctx.params.id, 'Monitor'));
    if (!monitor) throw HttpError.notFound('Monitor');
    const { request, keptQuery } = pageRequestFrom(validate(pageQuery, queryParameters(ctx.query)));
    const rows = store.pulses.page(monitor.id, request.perPage, pageOffset(request));
    const view = tokenView(store, ctx.state.scope);
    respondWithPage(ctx, {
      data: rows.map((row) => view.pulse(presentPulse(row))),
      total: store.pulses.count(monitor.id),
      request,
      path: requestUrl(ctx),
      keptQuery,
    });
  });

  return router;
}
