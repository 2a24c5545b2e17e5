import type { Context } from 'koa';
import type { Store } from '../db/store';
import type { MonitorRow } from '../db/monitors';
import { HttpError } from './errors';
import { recordUse, wrongCredential } from './auth';
import { FailedAuthLimiter } from './authLimiter';
import { validate } from './validate';
import { linePulseQuery, slugProblem } from '../contract/linePulses';
import { monitorForLine } from '../engine/monitorLines';
import type { EngineContext } from '../engine/engineContext';

/** The header that tells a line's CLI which monitor its pulse went to, so later runs pulse it by token. */
export const MONITOR_TOKEN_HEADER = 'X-Cronbeat-Monitor-Token';

/**
 * The monitor a pulse from a job's line names: /api/pulse/key/{key}/{slug}, with a ping key (or
 * a full one) in the path, made or brought to what the query says (monitorForLine). Answers 401
 * for an unknown key, 403 for a key that may not send pulses, 404 for a slug without a monitor
 * when the query has no create=1, 422 for a bad query or a new monitor without a schedule.
 */
export function lineMonitor(
  ctx: Context,
  { store, events, authLimiter = new FailedAuthLimiter() }: Pick<EngineContext, 'store' | 'events'> & { authLimiter?: FailedAuthLimiter },
  now: number,
): { monitor: MonitorRow; created: boolean } {
  const key = authenticatePingKey(store, ctx.params.key, now, authLimiter, ctx.request.ip);
  const slug = String(ctx.params.slug);
  const problem = slugProblem(slug);
  if (problem) throw HttpError.validation({ slug: [problem] });
  const query = validate(linePulseQuery, ctx.query);
  const line = { name: query.name, schedule: query.schedule, timezone: query.tz, grace: query.grace, tags: query.server ? [query.server] : [] };
  const outcome = monitorForLine({ store, events }, key.companyId, slug, line, query.create, now);
  if (outcome.kind === 'missing') throw new HttpError(404, `No monitor has the slug "${slug}"; add create=1 (and a schedule) to create it.`);
  if (outcome.kind === 'needs-schedule') {
    throw HttpError.validation({ schedule: [`The schedule field is required to create the monitor "${slug}".`] });
  }
  return outcome;
}

function authenticatePingKey(store: Store, presented: string, now: number, limiter: FailedAuthLimiter, ip: string): { companyId: number } {
  const key = store.apiTokens.authenticate(presented);
  // A wrong key in the path is throttled as a wrong Bearer token is (429 once the client's budget is spent).
  if (!key) throw wrongCredential(limiter, ip, now, new HttpError(401, 'Unauthenticated.'));
  if (key.scope !== 'ping' && key.scope !== 'full') {
    throw new HttpError(403, `A ${key.scope} key cannot send pulses; use a ping key (cronbeat token create --scope ping).`);
  }
  recordUse(store, key.id, now);
  return key;
}
