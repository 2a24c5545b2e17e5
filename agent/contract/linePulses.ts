import { z } from 'zod';
import { timeZoneOf } from './peopleInputs';
import { controlCharacterProblem, onlyFields, trimText } from './fields';
import { pulseQuery } from './pulses';
import { checkSchedule } from '../domain/schedules';
import { isSlug, MAX_SLUG_LENGTH, serverTag } from '../domain/monitors/ownLine';
import { WHOLE_MINUTES, wholeMinutes } from '../domain/monitors/minutes';
import { MAX_ALERT_AFTER } from '../domain/monitors/failureStreak';

/*
 * The query of a pulse sent by a job's line:
 * /api/pulse/key/{ping_key}/{slug}[/start|/fail|/{exit_code}]?create=1&schedule=…&tz=…&grace=…&max_runtime=…&alert_after=…&name=…&server=…
 * Each part is optional. Unlike a pulse by token, a parameter it does not take is a 422 naming it:
 * the query sets the monitor up, so a misspelt `timezone=` must not make a monitor in UTC.
 */

const text = (field: string, max: number, lines = false) =>
  z
    .string({ error: `The ${field} field must be given once.` })
    .overwrite(trimText)
    .min(1, { message: `The ${field} field must not be empty.`, abort: true })
    .max(max, `The ${field} field must not be greater than ${max} characters.`)
    .superRefine((value, context) => {
      // The query is decoded before it gets here, and bytes that are not UTF-8 come out as U+FFFD.
      if (value.includes('\uFFFD')) {
        context.addIssue({ code: 'custom', message: `The ${field} field is not UTF-8: percent-encode its bytes in UTF-8 (é is %C3%A9).`, continue: false });
        return;
      }
      // A schedule of systemd calendar events holds one a line: its line breaks are its own.
      const problem = controlCharacterProblem(field, lines ? value.replace(/\r?\n/g, ' ') : value);
      if (problem) context.addIssue({ code: 'custom', message: problem, continue: false });
    });

const minutes = (field: string) =>
  z
    .string({ error: `The ${field} field must be given once.` })
    .refine((value) => wholeMinutes(value) !== null, `The ${field} field must be ${WHOLE_MINUTES}.`)
    .transform(Number)
    .optional();

/** The failure in a row that alerts: a whole number from 1 to MAX_ALERT_AFTER. */
const alertAfter = z
  .string({ error: 'The alert_after field must be given once.' })
  .regex(/^\d{1,3}$/, `The alert_after field must be a whole number from 1 to ${MAX_ALERT_AFTER}.`)
  .transform(Number)
  .refine((value) => value >= 1 && value <= MAX_ALERT_AFTER, `The alert_after field must be a whole number from 1 to ${MAX_ALERT_AFTER}.`)
  .optional();

export const linePulseQuery = onlyFields(z.object({
  create: z
    .enum(['1', 'true', 'yes', '0', 'false', 'no', ''], { error: 'The create field must be 1 or 0.' })
    .optional()
    .transform((value) => value === '1' || value === 'true' || value === 'yes'),
  name: text('name', 255).optional(),
  schedule: text('schedule', 255, true)
    .transform((schedule, context) => {
      const checked = checkSchedule(schedule);
      if (checked.schedule !== undefined) return checked.schedule;
      context.addIssue({ code: 'custom', message: `The schedule field is not valid: ${checked.error}` });
      return z.NEVER;
    })
    .optional(),
  tz: text('tz', 64).transform(timeZoneOf('tz')).optional(),
  grace: minutes('grace'),
  max_runtime: minutes('max_runtime'),
  alert_after: alertAfter,
  server: text('server', 64)
    .transform((identifier, context) => {
      const tag = serverTag(identifier);
      if (tag) return tag;
      context.addIssue({ code: 'custom', message: 'The server field must be letters, digits, ".", "_", ":" or "-".' });
      return z.NEVER;
    })
    .optional(),
  rid: pulseQuery.shape.rid,
}));
export type LinePulseQuery = z.infer<typeof linePulseQuery>;

/** The slug in the path: what slugOf makes of a name (lower case, digits, `_`, `-`). */
export function slugProblem(slug: string): string | undefined {
  if (slug.length > MAX_SLUG_LENGTH || !isSlug(slug)) {
    return 'The slug must be lower case letters, digits, "_" and "-", with at least one letter, as `cronbeat run --name` makes it (e.g. nightly-backup).';
  }
  return undefined;
}

/** The body of PUT /api/monitors/{id}/line-key: the key whose line may from now on pulse and change the monitor. */
export const lineKeyInput = onlyFields(z.object({
  key_id: z
    .number({ error: (issue) => (issue.input == null ? 'The key id field is required.' : 'The key id field must be an integer.') })
    .int('The key id field must be an integer.')
    .positive('The key id field must be a positive integer.'),
}));

/** The answer: which monitor, by which slug, the line of which key. */
export interface WireLineKey {
  monitor_id: number;
  slug: string;
  key_id: number;
}
