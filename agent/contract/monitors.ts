import { z } from 'zod';
import type { MonitorReason } from '../domain/alerts/alert';
import { checkSchedule } from '../domain/schedules';
import { MONITOR_STATUSES, type MonitorStatus } from '../domain/monitors/status';
import { MAX_TAGS, tagOf } from '../domain/monitors/ownLine';
import { MAX_MINUTES } from '../domain/monitors/minutes';
import { parseZonedTimestamp } from '../domain/time/zonedTimestamp';
import { channelIdsField } from './channelIds';
import { MAX_ALERT_AFTER } from '../domain/monitors/failureStreak';
import { timeZoneOf } from './peopleInputs';
import { nameString, oneOf, onlyFields, patchOf, queryId, requiredInteger, requiredString } from './fields';

export { MONITOR_STATUSES, type MonitorStatus } from '../domain/monitors/status';

/** A monitor's tags: a list of tags (tagOf in agent/domain/monitors/ownLine.ts), stored sorted without repeats. */
function tagsField() {
  const message = 'The tags field must be a list of tags: letters, digits, "_", ".", ":" and "-", up to 50 characters each.';
  return z
    .array(z.string({ error: message }).transform((tag, context) => tagOf(tag) ?? (context.addIssue({ code: 'custom', message }), z.NEVER)), {
      error: message,
    })
    .max(MAX_TAGS, `The tags field must not have more than ${MAX_TAGS} items.`)
    .optional();
}

export const monitorInput = z.object({
  name: nameString('name', 255),
  timezone: requiredString('timezone', 64).transform(timeZoneOf('timezone')),
  project_id: z
    .number({ error: 'The project id field must be an integer.' })
    .int('The project id field must be an integer.')
    .min(1, 'The project id field must be at least 1.')
    .max(Number.MAX_SAFE_INTEGER, 'The project id field is too large.')
    .nullish()
    .transform((value) => value ?? null),
  // A macro is stored as its five fields; a mistake is explained field by field.
  schedule: requiredString('schedule', 255).transform((schedule, context) => {
    const checked = checkSchedule(schedule);
    if (checked.schedule !== undefined) return checked.schedule;
    context.addIssue({ code: 'custom', message: `The schedule field is not valid: ${checked.error}` });
    return z.NEVER;
  }),
  duration: requiredInteger('duration', 1, MAX_MINUTES),
  channel_ids: channelIdsField(),
  tags: tagsField(),
});
/** A setting of Cronbeat's own that has a request of its own, sent in the create body anyway. */
const setElsewhere = (field: string, request: string) =>
  z.undefined({ error: `The ${field} field is set with ${request} once the monitor is made.` }).optional();

/**
 * POST /api/monitors: the spec's create body, which ignores a field it does not take as the
 * service the spec describes does; but Cronbeat's own settings that have a request of their own
 * (and show in the monitor's answer) are refused saying which, never a monitor made without them.
 */
export const monitorCreateInput = monitorInput.extend({
  max_runtime: setElsewhere('max_runtime', 'PUT /api/monitors/{id}/max-runtime'),
  alert_after: setElsewhere('alert_after', 'PUT /api/monitors/{id}/alert-after'),
});

/** A monitor's create body as a client sends it (the CLI's `monitor` commands, the dashboard). */
export type MonitorInput = z.input<typeof monitorInput>;

export const monitorPatch = patchOf(monitorInput);
/** The fields PATCH /api/monitors/{id} takes; absent ones keep their value. */
export type MonitorChanges = z.input<typeof monitorPatch>;

/**
 * The body of PUT /api/monitors/{id}/max-runtime: minutes a started run may take before it is stuck, or
 * null for no limit. Its own request rather than a field of the spec's monitor bodies, whose shapes
 * (and their "takes only" answers) stay exactly the spec's.
 */
export const maxRuntimeInput = onlyFields(
  z.object({
    max_runtime: requiredInteger('max_runtime', 1, MAX_MINUTES).nullable(),
  }),
);

/**
 * The body of PUT /api/monitors/{id}/alert-after: the failure in a row that alerts (1, the default: the
 * first). Its own request, as max-runtime's, so the spec's monitor bodies stay exactly the spec's.
 */
export const alertAfterInput = onlyFields(
  z.object({
    alert_after: requiredInteger('alert_after', 1, MAX_ALERT_AFTER),
  }),
);

/**
 * The body of POST /api/monitors/{id}/pause: no `until` pauses until resumed; a time snoozes until then.
 * Any other field is refused: a misspelt `until` would otherwise pause the monitor for good.
 */
export const pauseInput = onlyFields(
  z.object({
    until: z
      .string({ error: 'The until field must be a date and time such as 2026-03-08T06:40:00Z.' })
      .refine((value) => parseZonedTimestamp(value) !== null, {
        message: 'The until field must be a date and time that exists, with a zone, such as 2026-03-08T06:40:00Z.',
        abort: true,
      })
      .transform((value) => parseZonedTimestamp(value) as number)
      .nullish()
      .transform((value) => value ?? null),
  }),
);

/** GET /api/monitors?status=&project_id=. */
export const monitorListQuery = z.object({
  status: oneOf('status', MONITOR_STATUSES),
  project_id: queryId('project_id'),
  tag: z
    .string({ error: 'The tag field must be given once.' })
    .transform((tag, context) => tagOf(tag) ?? (context.addIssue({ code: 'custom', message: 'The tag field must be a tag: letters, digits, "_", ".", ":" and "-".' }), z.NEVER))
    .optional(),
});

/** A monitor as the API shows it: the spec's fields, then Cronbeat's own (docs/monitoring.md). */
export interface MonitorResource {
  id: number;
  name: string;
  company_id: number;
  project_id: number | null;
  token: string;
  timezone: string;
  schedule: string;
  last_run_at: string;
  duration: number;
  is_alerted: number;
  alert_reason: string;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
  status: MonitorStatus;
  next_due_at: string | null;
  last_pulse_at: string | null;
  paused_at: string | null;
  paused_until: string | null;
  pulse_url: string;
  /** The slug a job's line matches it by (null: not made by nor matched to a line). */
  slug: string | null;
  tags: string[];
  /** The channels it alerts; null for all of the company's. */
  channel_ids: number[] | null;
  /** Why it is failed, as data (alert_reason is its words); null when not failed, or failed before reasons were kept as data. */
  alert_reason_data: MonitorReason | null;
  /** Minutes a started run may take before it is stuck; absent when the monitor has no max run time (so bodies without one stay as the spec shows them). */
  max_runtime?: number;
  /** The failure in a row that alerts; absent when it is the first (the default), so bodies stay as the spec shows them. */
  alert_after?: number;
  /** With alert_after: the failed or missed runs in a row so far (0 when fine); absent with it. */
  failures_in_a_row?: number;
  /** While its alerts are held for flapping: since when (its flapping alert); absent otherwise. */
  flapping_since?: string;
}

/**
 * A monitor as any key sees it: a full key gets a MonitorResource; a key that may not write
 * (read-only) gets `token` and `pulse_url` null, since a pulse token can fail or recover the monitor.
 */
export type MonitorView = Omit<MonitorResource, 'token' | 'pulse_url'> & { token: string | null; pulse_url: string | null };
