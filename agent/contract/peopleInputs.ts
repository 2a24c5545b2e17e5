import { z } from 'zod';
import { parseClockTime } from '../domain/schedules/clockTime';
import { parseEmailAddresses } from '../domain/channels/emailAddresses';
import { resolveTimeZone } from '../domain/time/timeZones';

/*
 * What people type that the API and the dashboard check by one rule: time zones,
 * times of day and email addresses. Each is a transform for a trimmed string schema, with a
 * message that names the field (Laravel's wording, as every message of the API).
 */

const label = (field: string) => field.replace(/[._]/g, ' ');

/** A zone by agent/domain/time/timeZones.ts: the current name is kept; a refusal says which zones it may mean. */
export function timeZoneOf(field: string) {
  return (zone: string, context: z.RefinementCtx): string => {
    const answer = resolveTimeZone(zone);
    if (answer.zone !== undefined) return answer.zone;
    context.addIssue({ code: 'custom', message: `The ${label(field)} field must be a valid time zone: ${answer.error}` });
    return z.NEVER;
  };
}

/** A time of day, "HH:MM" with or without the leading zero ("8:00"), stored as "08:00". */
export function clockTimeOf(field: string, example: string) {
  return (text: string, context: z.RefinementCtx): string => {
    const time = parseClockTime(text);
    if (time !== null) return time;
    context.addIssue({ code: 'custom', message: `The ${label(field)} field must be a time such as ${example}.` });
    return z.NEVER;
  };
}

/** One address (`many` false) or a comma-separated list, as nodemailer sends them; kept as written. */
export function emailAddressesOf(field: string, options: { many: boolean }) {
  return (text: string, context: z.RefinementCtx): string => {
    const addresses = parseEmailAddresses(text);
    if (addresses && (options.many || addresses.length === 1)) return text;
    context.addIssue({
      code: 'custom',
      message: options.many
        ? `The ${label(field)} field must be one or more email addresses, separated by commas, such as me@localhost or Ops <ops@example.com>.`
        : `The ${label(field)} field must be an email address, such as cronbeat@example.com or Cronbeat <cronbeat@example.com>.`,
    });
    return z.NEVER;
  };
}
