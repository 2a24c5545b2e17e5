import Router from '@koa/router';
import type { ApiDeps, AuthedRouter } from '../deps';
import { readJsonBody } from '../body';
import { HttpError } from '../errors';
import { validate } from '../validate';
import { settingsPatch, type WireSettings } from '../../contract/settings';

/**
 * GET /api/settings: the agent's settings (the public URL and where it comes from); PATCH
 * /api/settings sets the public URL from the dashboard (null clears it). One set with
 * `serve --public-url` or CRONBEAT_PUBLIC_URL wins, and PATCHing it answers 409.
 */
export function settingsRoutes({ store, clock, requireToken, publicUrl }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router();
  const present = (): WireSettings => ({ public_url: publicUrl?.current() ?? null, public_url_source: publicUrl?.source() ?? null });

  router.get('/api/settings', requireToken, (ctx) => {
    ctx.body = present();
  });

  router.patch('/api/settings', requireToken, async (ctx) => {
    const input = validate(settingsPatch, await readJsonBody(ctx));
    if (input.public_url !== undefined) {
      if (publicUrl?.source() === 'serve') {
        throw new HttpError(409, 'The public URL is set by `cronbeat serve --public-url` (or CRONBEAT_PUBLIC_URL); change it there.');
      }
      store.settings.set('public_url', input.public_url, clock());
    }
    ctx.body = present();
  });

  return router;
}
