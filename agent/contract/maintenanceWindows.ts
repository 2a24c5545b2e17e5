import { z } from 'zod';
import { checkSchedule } from '../domain/schedules';
import { MAX_ONE_OFF_MS, MAX_WINDOW_MINUTES, neverEndingGap, opensWindows, type MaintenanceWindow } from '../domain/maintenance/windows';
import { describeDuration } from '../domain/time/durations';
import { MAX_TAGS, tagOf } from '../domain/monitors/ownLine';
import { parseZonedTimestamp } from '../domain/time/zonedTimestamp';
import { timeZoneOf } from './peopleInputs';
import { controlCharacterProblem, label, onlyFields, queryError, queryId, requiredInteger, trimText } from './fields';

/*
 * Maintenance windows (Cronbeat's own resource, docs/api.md): one-off (starts_at, ends_at) or
 * recurring (schedule, timezone, duration in minutes), for the monitors named in monitor_ids,
 * those with one of `tags`, or every monitor when both are empty.
 */

const EXAMPLE = 'such as 2026-03-08T06:40:00Z';

function zonedTime(field: string) {
  return z
    .string({ error: `The ${label(field)} field must be a date and time ${EXAMPLE}.` })
    .refine((value) => parseZonedTimestamp(value) !== null, {
      message: `The ${label(field)} field must be a date and time that exists, with a zone, ${EXAMPLE}.`,
      abort: true,
    })
    .transform((value) => parseZonedTimestamp(value) as number)
    .nullish();
}

const A_PERIOD =
  'The schedule field must be a cron expression such as "0 3 * * 0" or a calendar event such as "Sun 03:00": a window opens at each run of it, and a period (@every) has no moment of its own to open at.';


const tagMessage = 'The tags field must be a list of tags: letters, digits, "_", ".", ":" and "-", up to 50 characters each.';

export const maintenanceWindowInput = onlyFields(
  z.object({
    name: z
      .string({ error: 'The name field must be a string.' })
      .overwrite(trimText)
      .max(255, 'The name field must not be greater than 255 characters.')
      .superRefine((name, context) => {
        const problem = controlCharacterProblem('name', name);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .nullish(),
    starts_at: zonedTime('starts_at'),
    ends_at: zonedTime('ends_at'),
    schedule: z
      .string({ error: 'The schedule field must be a string.' })
      .max(255, 'The schedule field must not be greater than 255 characters.')
      .transform((schedule, context) => {
        const checked = checkSchedule(schedule);
        if (checked.schedule === undefined) {
          context.addIssue({ code: 'custom', message: `The schedule field is not valid: ${checked.error}` });
          return z.NEVER;
        }
        if (!opensWindows(checked.schedule)) {
          context.addIssue({ code: 'custom', message: A_PERIOD });
          return z.NEVER;
        }
        return checked.schedule;
      })
      .nullish(),
    timezone: z
      .string({ error: 'The timezone field must be a string.' })
      .max(64, 'The timezone field must not be greater than 64 characters.')
      .transform(timeZoneOf('timezone')).nullish(),
    duration: requiredInteger('duration', 1, MAX_WINDOW_MINUTES).nullish(),
    monitor_ids: z
      .array(
        z
          .number({ error: 'The monitor ids field must be a list of monitor ids.' })
          .int('The monitor ids field must be a list of monitor ids.')
          .min(1, 'The monitor ids field must be a list of monitor ids.')
          .max(Number.MAX_SAFE_INTEGER, 'The monitor ids field must be a list of monitor ids.'),
        { error: 'The monitor ids field must be a list of monitor ids.' },
      )
      .max(1000, 'The monitor ids field must not have more than 1000 items.')
      .nullish(),
    tags: z
      .array(z.string({ error: tagMessage }).transform((tag, context) => tagOf(tag) ?? (context.addIssue({ code: 'custom', message: tagMessage }), z.NEVER)), {
        error: tagMessage,
      })
      .max(MAX_TAGS, `The tags field must not have more than ${MAX_TAGS} items.`)
      .nullish(),
  }),
);
/** The body of POST /api/maintenance-windows (and, every field optional, PATCH) as a client sends it. */
export type MaintenanceWindowInput = z.input<typeof maintenanceWindowInput>;

/** PATCH /api/maintenance-windows/{id}: any field of the create body; the result is checked whole (windowShapeErrors). */
export const maintenanceWindowPatch = maintenanceWindowInput.superRefine((body, context) => {
  if (Object.values(body).every((value) => value === undefined)) {
    context.addIssue({ code: 'custom', path: ['body'], message: 'The body must contain at least one field of a maintenance window.' });
  }
});

/** A window's fields once a create body or a patch over the stored window is read (times in UTC milliseconds). */
export interface WindowFields {
  name: string;
  startsAt: number | null;
  endsAt: number | null;
  schedule: string | null;
  timezone: string | null;
  durationMinutes: number | null;
  monitorIds: number[];
  tags: string[];
}

/**
 * What is wrong with a window as a whole, field by field (empty when nothing): one-off needs
 * both times, the end after the start and at most MAX_ONE_OFF_MS later; recurring needs a
 * schedule, a zone and a duration, and must close between some two of its openings (read from
 * `now`); a window is one kind or the other.
 */
export function windowShapeErrors(window: WindowFields, now: number): Record<string, string[]> {
  const oneOff = window.startsAt !== null || window.endsAt !== null;
  const recurring = window.schedule !== null || window.timezone !== null || window.durationMinutes !== null;
  if (oneOff && recurring) {
    const field = window.schedule !== null ? 'schedule' : window.timezone !== null ? 'timezone' : 'duration';
    return { [field]: [`The ${field} field is for a recurring window; a one-off window has only starts_at and ends_at.`] };
  }
  if (!oneOff && !recurring) {
    return { starts_at: ['The starts at field is required: give starts_at and ends_at, or schedule, timezone and duration.'] };
  }
  if (oneOff) {
    if (window.startsAt === null) return { starts_at: ['The starts at field is required with ends_at.'] };
    if (window.endsAt === null) return { ends_at: ['The ends at field is required with starts_at.'] };
    if (window.endsAt <= window.startsAt) return { ends_at: ['The ends at field must be a time after starts_at.'] };
    if (window.endsAt - window.startsAt > MAX_ONE_OFF_MS) return { ends_at: ['The ends at field must be at most 31 days after starts_at.'] };
    return {};
  }
  if (window.schedule === null) return { schedule: ['The schedule field is required for a recurring window.'] };
  if (window.timezone === null) return { timezone: ['The timezone field is required for a recurring window.'] };
  if (window.durationMinutes === null) return { duration: ['The duration field is required for a recurring window.'] };
  if (!opensWindows(window.schedule)) return { schedule: [A_PERIOD] };
  const gap = neverEndingGap(window.schedule, window.durationMinutes, now);
  if (gap !== null) {
    const words = describeDuration(gap * 60_000);
    return {
      duration: [
        `The duration field must be under ${words}: "${window.schedule}" opens the window again ${words} after it opened at the longest, so each occurrence would last until the next one opened and the window would never end.`,
      ],
    };
  }
  return {};
}

/** GET /api/maintenance-windows?monitor_id=&active=&page=&per_page=. */
export const maintenanceWindowListQuery = z.object({
  monitor_id: queryId('monitor_id'),
  active: z.enum(['true', 'false'], { error: queryError('active', 'The active field must be true or false.') }).optional(),
});

/** A maintenance window as the API answers it. Times are API timestamps. */
export interface MaintenanceWindowResource {
  id: number;
  company_id: number;
  name: string;
  kind: 'one_off' | 'recurring';
  starts_at: string | null;
  ends_at: string | null;
  schedule: string | null;
  timezone: string | null;
  duration: number | null;
  monitor_ids: number[];
  tags: string[];
  /** Whether an occurrence is under way now, and when it ends (null when none is). */
  active: boolean;
  active_until: string | null;
  /** When the next occurrence starts (null: none to come, or a one-off already started). */
  next_starts_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The rules' view of a window as the API answers it (the dashboard asks the same rules as the engine). */
export function windowOfResource(resource: MaintenanceWindowResource): MaintenanceWindow {
  return {
    id: resource.id,
    startsAt: resource.starts_at === null ? null : Date.parse(resource.starts_at),
    endsAt: resource.ends_at === null ? null : Date.parse(resource.ends_at),
    schedule: resource.schedule,
    timezone: resource.timezone,
    durationMinutes: resource.duration,
    monitorIds: resource.monitor_ids,
    tags: resource.tags,
  };
}
