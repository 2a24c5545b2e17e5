import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { ApiDeps, AuthedRouter } from '../deps';
import { readJsonBody } from '../http/body';
import { HttpError } from '../http/errors';
import { validate } from '../http/validate';
import { settingsPatch, WATCHDOG_URL_MASK, type WireSettings } from '../../contract/settings';
import { toNullableApiTimestamp } from '../../domain/time/apiTimestamps';
import { AGENT_COMPANY_ID, changesAgentSettings } from '../../domain/access/keyScopes';

/**
 * GET /api/settings: the agent's settings (the public URL, the watchdog URL masked, and where each
 * comes from); PATCH /api/settings sets them from the dashboard (null clears one). One set with
 * a flag of `serve` or its environment variable wins, and PATCHing it answers 409. They are the
 * agent's own, shared by every company on it: another company's key reads them and may not change them.
 */
export function settingsRoutes({ store, clock, requireToken, publicUrl, watchdogUrl, watchdogState }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  const present = (): WireSettings => ({
    public_url: publicUrl?.current() ?? null,
    public_url_source: publicUrl?.source() ?? null,
    watchdog_url: watchdogUrl?.current() ? WATCHDOG_URL_MASK : null,
    watchdog_url_source: watchdogUrl?.source() ?? null,
    watchdog_last_ping_at: toNullableApiTimestamp(watchdogState?.lastPingAt ?? null),
    watchdog_problem: watchdogUrl?.current() ? (watchdogState?.problem ?? null) : null,
  });

  router.get('/api/settings', requireToken, (ctx) => {
    ctx.body = present();
  });

  router.patch('/api/settings', requireToken, async (ctx) => {
    if (!changesAgentSettings(ctx.state.scope, ctx.state.companyId)) {
      throw new HttpError(
        403,
        `These settings are the agent's own and point every company's links and pulse URLs: only a full key of company ${AGENT_COMPANY_ID}, the agent's own, may change them.`,
      );
    }
    const input = validate(settingsPatch, await readJsonBody(ctx));
    if (input.public_url !== undefined) {
      if (publicUrl?.source() === 'serve') {
        throw new HttpError(409, 'The public URL is set by `cronbeat serve --public-url` (or CRONBEAT_PUBLIC_URL); change it there.');
      }
    }
    if (input.watchdog_url !== undefined && watchdogUrl?.source() === 'serve') {
      throw new HttpError(409, 'The watchdog URL is set by `cronbeat serve --watchdog-url` (or CRONBEAT_WATCHDOG_URL); change it there.');
    }
    // Checked both before writing either, so a refused PATCH changes nothing.
    if (input.public_url !== undefined) store.settings.set('public_url', input.public_url, clock());
    if (input.watchdog_url !== undefined) store.settings.set('watchdog_url', input.watchdog_url, clock());
    ctx.body = present();
  });

  return router;
}
