import { z } from 'zod';
import { idempotencyKeyHeader, queryError, utf8Query } from './fields';
import { MAX_MEASURED_DURATION_MS } from '../domain/monitors/pulseInput';
import type { HistoryKind } from '../domain/monitors/pulseEffect';

/**
 * How other monitors take a run's outcome in the query: Uptime Kuma's push `?status=down`,
 * Cronitor's `?state=fail` and `?status_code=1`, an `?exit_code=3`. Cronbeat reads the outcome from
 * the path only, so such a pulse would count as a success: refused, naming it, never read as fine.
 */
const outcomeParameter = (field: string) =>
  z
    .undefined({
      error: `The ${field} field is not read: a pulse's outcome is in its path, /api/pulse/TOKEN for success, /fail, /start or the exit code (/api/pulse/TOKEN/3).`,
    })
    .optional();

/** A pulse's query: `rid` pairs a start with its end. */
export const pulseQuery = z.object({
  status: outcomeParameter('status'),
  state: outcomeParameter('state'),
  status_code: outcomeParameter('status_code'),
  exit_code: outcomeParameter('exit_code'),
  rid: z
    .string({ error: queryError('rid', 'The rid field must be a string.') })
    .max(200, 'The rid field must not be greater than 200 characters.')
    .refine(...utf8Query('rid'))
    .optional()
    .transform((value) => value || null),
});

/**
 * A pulse's own headers. `Idempotency-Key` (as Stripe and the IETF draft name it; quoted or
 * not) makes a retry count once; `X-Cronbeat-Duration-Ms` is the run's duration as the client
 * measured it; `X-Cronbeat-Age-Ms` how long before it was sent its event happened, on the client's
 * own clock (so right however wrong that clock is). `X-Cronbeat-Sent-At` is read leniently by pulseTime (an unreadable one counts as absent).
 */
export const pulseHeaders = z.object({
  'idempotency-key': idempotencyKeyHeader,
  'x-cronbeat-duration-ms': z
    .string()
    .regex(/^\d{1,12}$/, 'The X-Cronbeat-Duration-Ms header must be a whole number of milliseconds.')
    .transform(Number)
    .refine((ms) => ms <= MAX_MEASURED_DURATION_MS, 'The X-Cronbeat-Duration-Ms header must not be greater than a year.')
    .optional()
    .transform((value) => value ?? null),
  'x-cronbeat-age-ms': z
    .string()
    .regex(/^\d{1,12}$/, 'The X-Cronbeat-Age-Ms header must be a whole number of milliseconds.')
    .transform(Number)
    .optional()
    .transform((value) => value ?? null),
});

/** One pulse of a monitor's run history (GET /api/monitors/{id}/pulses). */
export interface PulseResource {
  id: number;
  monitor_id: number;
  kind: HistoryKind;
  exit_code: number | null;
  rid: string | null;
  received_at: string;
  duration_ms: number | null;
  method: string;
  remote_address: string;
  body: string;
  body_truncated: boolean;
  /** A snooze's end, on its `pause` line (the body says it in UTC words); null on every other line. */
  paused_until: string | null;
}
