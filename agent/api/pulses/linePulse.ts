import type { Context } from 'koa';
import type { Store } from '../../db/store';
import type { MonitorRow } from '../../db/monitors';
import { HttpError } from '../http/errors';
import { recordUse, wrongCredential } from '../http/auth';
import { FailedAuthLimiter } from '../http/authLimiter';
import { validate } from '../http/validate';
import { queryParameters } from '../http/query';
import { linePulseQuery, slugProblem } from '../../contract/linePulses';
import { monitorForLine, type CreationBudgets, type LineKey, type NotYours } from '../../engine/monitors/monitorLines';
import { LINE_CREATIONS_PER_MINUTE } from '../../domain/monitors/lineLimits';
import type { EngineContext } from '../../engine/engineContext';
import { IdempotencyKeyReusedError, type PulseGist } from '../../domain/monitors/pulseInput';
import { keyReusedAs422 } from './pulseRequest';

/** The header that tells a line's CLI which monitor its pulse went to, so later runs pulse it by token. */
export const MONITOR_TOKEN_HEADER = 'X-Cronbeat-Monitor-Token';

/**
 * The monitor a pulse from a job's line names: /api/pulse/key/{key}/{slug}, with a ping key (or
 * a full one) in the path, made or brought to what the query says (monitorForLine). Answers 401
 * for an unknown key, 403 for a key that may not send pulses or whose lines have all the monitors
 * they may, 404 for a slug without a monitor when the query has no create=1, 409 for a monitor
 * this key's line did not make, 422 for a bad query, a new monitor without a schedule or the
 * pulse's Idempotency-Key used for another pulse (the line's edit is refused with it), 429 when
 * the key's lines make monitors too fast.
 */
export function lineMonitor(
  ctx: Context,
  { store, events, authLimiter = new FailedAuthLimiter() }: Pick<EngineContext, 'store' | 'events'> & { authLimiter?: FailedAuthLimiter },
  budgets: CreationBudgets,
  now: number,
  pulse?: PulseGist & { idempotencyKey: string | null },
): { monitor: MonitorRow; created: boolean } {
  const key = authenticatePingKey(store, ctx.params.key, now, authLimiter, ctx.request.ip);
  const slug = String(ctx.params.slug);
  const problem = slugProblem(slug);
  if (problem) throw HttpError.validation({ slug: [problem] });
  const query = validate(linePulseQuery, queryParameters(ctx.query));
  const line = { name: query.name, schedule: query.schedule, timezone: query.tz, grace: query.grace, maxRuntime: query.max_runtime, alertAfter: query.alert_after, tags: query.server ? [query.server] : [] };
  const outcome = monitorForLine({ store, events }, key, slug, line, query.create, now, budgets, pulse);
  switch (outcome.kind) {
    case 'found':
      return outcome;
    case 'key-reused':
      return keyReusedAs422(new IdempotencyKeyReusedError());
    case 'missing':
      throw new HttpError(404, `No monitor has the slug "${slug}"; add create=1 (and a schedule) to create it.`);
    case 'needs-schedule':
      throw HttpError.validation({ schedule: [`The schedule field is required to create the monitor "${slug}".`] });
    case 'not-yours':
      throw new HttpError(409, notYoursMessage(slug, outcome.why, outcome.monitorId, key.id));
    case 'over-cap':
      throw new HttpError(
        403,
        `This key's lines have made ${outcome.max} ${outcome.max === 1 ? 'monitor' : 'monitors'}, as many as it may (max_monitors ${outcome.max}); "${slug}" was not created. ` +
          'Delete monitors it no longer needs, or have an admin raise the key\'s max_monitors (PATCH /api/keys/{id}).',
      );
    case 'too-fast': {
      const seconds = Math.ceil(outcome.retryAfterMs / 1000);
      throw new HttpError(
        429,
        `This key's lines may make ${LINE_CREATIONS_PER_MINUTE} new monitors a minute; "${slug}" was not created. Try again in ${seconds} s.`,
        undefined,
        { 'Retry-After': String(seconds) },
      );
    }
  }
}

/** Why a line may not touch the monitor its slug names, and what to do: one sentence each, for cron's mail. */
function notYoursMessage(slug: string, why: NotYours, monitorId: number, keyId: number): string {
  const whose = {
    'another-key': "was made by another key's line",
    'revoked-key': 'was made by the line of a key that has since been revoked',
    unrecorded: 'was made by a line before Cronbeat recorded which key made each monitor',
    dashboard: 'has this name and was made in the dashboard or the API, not by a line',
  }[why];
  const monitor = why === 'dashboard' ? `A monitor whose slug is "${slug}"` : `The monitor "${slug}"`;
  return (
    `${monitor} ${whose}, so this key's line may neither pulse nor change it (nothing was recorded). ` +
    `Give this line another name, or have an admin hand that monitor to this key (id ${keyId}): cronbeat monitor hand ${monitorId} --key ${keyId}.`
  );
}

function authenticatePingKey(store: Store, presented: string, now: number, limiter: FailedAuthLimiter, ip: string): LineKey {
  const key = store.apiTokens.authenticate(presented, now);
  // A wrong key in the path is throttled as a wrong Bearer token is (429 once the client's budget is spent).
  if (!key) throw wrongCredential(limiter, ip, now, new HttpError(401, 'Unauthenticated.'));
  if (key.scope !== 'ping' && key.scope !== 'full') {
    throw new HttpError(403, `A ${key.scope} key cannot send pulses; use a ping key (cronbeat token create --scope ping).`);
  }
  recordUse(store, key.id, now);
  return { id: key.id, companyId: key.companyId, maxMonitors: store.apiTokens.byId(key.id)?.max_monitors ?? null };
}
