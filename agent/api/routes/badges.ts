import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import type { Context } from 'koa';
import type { ApiDeps } from '../deps';
import { HttpError } from '../http/errors';
import { recordUse, wrongCredential } from '../http/auth';
import { FailedAuthLimiter } from '../http/authLimiter';
import type { MonitorRow } from '../../db/monitors';
import { badgeSvg, monitorBadge, shieldsEndpoint, tagBadge, type BadgeFace } from '../../domain/formats/badge';
import { tagOf } from '../../domain/monitors/ownLine';
import { monitorStatus } from '../../domain/monitors/status';
import { tokenView } from '../present/tokenVisibility';

/** How long a badge may be cached: short, so a failure shows within minutes. */
export const BADGE_MAX_AGE_SECONDS = 60;
/** shields.io's own minimum for endpoint badges. */
const SHIELDS_CACHE_SECONDS = 300;

const notFound = () => new HttpError(404, 'Badge not found.');

/** "12.svg", "nightly-backup.json", "server:web-01.svg" → the name and the format. */
function splitFile(file: string): { name: string; format: 'svg' | 'json' } {
  const match = /^(.+)\.(svg|json)$/.exec(file);
  if (!match) throw notFound();
  return { name: match[1], format: match[2] as 'svg' | 'json' };
}

/**
 * Status badges, behind a badge key in the path, safe to put in a public README:
 * GET /api/badges/{badge_key}/monitors/{id or slug}.svg|.json and /api/badges/{badge_key}/tags/{tag}.svg|.json.
 * The key may only read badges; an unknown key, monitor or tag answers 404 alike.
 */
export function badgeRoutes({ store, clock, authLimiter = new FailedAuthLimiter() }: ApiDeps): Router {
  const router = new Router(ROUTER_OPTIONS);
  // A badge not there (yet) must not stick in an image proxy's cache: a README may name a monitor or tag before it exists.
  router.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      ctx.set('Cache-Control', 'no-store');
      throw error;
    }
  });

  const companyOf = (ctx: Context): number => {
    const key = store.apiTokens.authenticate(String(ctx.params.key), clock());
    // A wrong badge key is throttled as a wrong Bearer token is; a right one always gets its badge.
    if (!key) throw wrongCredential(authLimiter, ctx.request.ip, clock(), notFound());
    if (key.scope !== 'badge') {
      throw new HttpError(403, 'Badges take a badge key (cronbeat token create --scope badge), never one that can read or change more.');
    }
    recordUse(store, key.id, clock());
    return key.companyId;
  };

  const answer = (ctx: Context, face: BadgeFace, format: 'svg' | 'json') => {
    ctx.set('Cache-Control', `public, max-age=${BADGE_MAX_AGE_SECONDS}`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (format === 'json') {
      ctx.body = shieldsEndpoint(face, SHIELDS_CACHE_SECONDS);
      return;
    }
    // Opened on its own, the SVG can run nothing and load nothing.
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    ctx.type = 'image/svg+xml';
    ctx.body = badgeSvg(face);
  };

  router.get('/api/badges/:key/monitors/:file', (ctx) => {
    const companyId = companyOf(ctx);
    const { name, format } = splitFile(ctx.params.file);
    const monitor: MonitorRow | null = /^[1-9]\d{0,15}$/.test(name)
      ? store.monitors.find(companyId, Number(name))
      : store.monitorLines.findBySlug(companyId, name);
    if (!monitor) throw notFound();
    // Shown to anyone: a name written after its curl line must not hand out a pulse token.
    answer(ctx, monitorBadge(tokenView(store, 'badge').text(monitor.name), monitorStatus(monitor)), format);
  });

  router.get('/api/badges/:key/tags/:file', (ctx) => {
    const companyId = companyOf(ctx);
    const { name, format } = splitFile(ctx.params.file);
    const tag = tagOf(name);
    if (!tag) throw notFound();
    const statuses = store.monitorLines.withTag(companyId, tag).map(monitorStatus);
    const face = tagBadge(tag, statuses);
    if (!face) throw notFound();
    answer(ctx, face, format);
  });

  return router;
}
