import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { z } from 'zod';
import { canonicalTimeZone, isFiveFieldCron } from '../domain/schedule';
import { CRON_CHANGES } from '../domain/serverAlerts';
import { MONITOR_STATUSES } from '../engine/monitorState';

/*
 * Every request body and query of the API, validated here and typed by z.infer. Messages follow
 * Laravel's wording, naming the field, because the spec's clients are used to them.
 */

const label = (field: string) => field.replace(/_/g, ' ');
const isMissing = (input: unknown) => input === undefined || input === null;

/** A required string, trimmed, 1..max characters. */
function requiredString(field: string, max: number) {
  return z
    .string({
      error: (issue) =>
        isMissing(issue.input) ? `The ${label(field)} field is required.` : `The ${label(field)} field must be a string.`,
    })
    .trim()
    .min(1, { message: `The ${label(field)} field is required.`, abort: true })
    .max(max, { message: `The ${label(field)} field must not be greater than ${max} characters.`, abort: true });
}

/** A required integer between min and max. */
function requiredInteger(field: string, min: number, max: number) {
  return z
    .number({
      error: (issue) =>
        isMissing(issue.input) ? `The ${label(field)} field is required.` : `The ${label(field)} field must be an integer.`,
    })
    .int(`The ${label(field)} field must be an integer.`)
    .min(min, `The ${label(field)} field must be between ${min} and ${max}.`)
    .max(max, `The ${label(field)} field must be between ${min} and ${max}.`);
}

export const serverInput = z.object({
  name: requiredString('name', 255),
  ip_address: requiredString('ip_address', 45).refine((value) => isIP(value) !== 0, {
    message: 'The ip address field must be a valid IP address.',
  }),
  identifier: requiredString('identifier', 64).regex(
    /^[A-Za-z0-9._-]+$/,
    'The identifier field may only contain letters, digits, dots, dashes and underscores.',
  ),
});
export type ServerInput = z.infer<typeof serverInput>;

/**
 * A PATCH body: any of the create body's fields, each checked as on create, and at least one
 * of them (a body naming none, such as a misspelt field, is a mistake, never a silent success).
 */
function patchOf<Shape extends z.ZodRawShape>(create: z.ZodObject<Shape>) {
  const fields = Object.keys(create.shape);
  return create.partial().superRefine((body, context) => {
    if (Object.values(body).every((value) => value === undefined)) {
      context.addIssue({ code: 'custom', path: ['body'], message: `The body must contain at least one of: ${fields.join(', ')}.` });
    }
  });
}

export const serverPatch = patchOf(serverInput);
export type ServerPatch = z.infer<typeof serverPatch>;

/** GET /api/servers?q=: servers whose name, identifier or IP address contains q (any case). */
export const serverListQuery = z.object({
  q: z
    .string({ error: 'The q field must be a string.' })
    .max(255, 'The q field must not be greater than 255 characters.')
    .optional(),
});

export const serverAlertInput = z.object({
  username: requiredString('username', 255),
  server_id: requiredString('server_id', 64),
  command: requiredString('command', 10_000),
  // Extensions the `cronbeat crontab watch` sends; other clients may leave them out.
  change: z
    .enum(CRON_CHANGES, { error: 'The change field must be one of: added, removed, altered.' })
    .default('altered'),
  previous_command: z
    .string({ error: 'The previous command field must be a string.' })
    .max(10_000, 'The previous command field must not be greater than 10000 characters.')
    .nullish()
    .transform((value) => value || null),
});
export type ServerAlertInput = z.infer<typeof serverAlertInput>;

export const monitorInput = z.object({
  name: requiredString('name', 255),
  timezone: requiredString('timezone', 64).transform((zone, context) => {
    const canonical = canonicalTimeZone(zone);
    if (canonical) return canonical;
    context.addIssue({ code: 'custom', message: 'The timezone field must be a valid timezone.' });
    return z.NEVER;
  }),
  project_id: z
    .number({ error: 'The project id field must be an integer.' })
    .int('The project id field must be an integer.')
    .min(1, 'The project id field must be at least 1.')
    .max(Number.MAX_SAFE_INTEGER, 'The project id field is too large.')
    .nullish()
    .transform((value) => value ?? null),
  schedule: requiredString('schedule', 255).refine(isFiveFieldCron, {
    message: 'The schedule field must be a cron expression with five fields, such as "*/5 * * * *".',
  }),
  duration: requiredInteger('duration', 1, 525_600),
});
export type MonitorInput = z.infer<typeof monitorInput>;

export const monitorPatch = patchOf(monitorInput);
export type MonitorPatch = z.infer<typeof monitorPatch>;

/** The body of POST /api/monitors/{id}/pause: no `until` pauses until resumed; a time snoozes until then. */
export const pauseInput = z.object({
  until: z
    .string({ error: 'The until field must be a date and time such as 2026-03-08T06:40:00Z.' })
    .refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)), {
      message: 'The until field must be a date and time with a zone, such as 2026-03-08T06:40:00Z.',
      abort: true,
    })
    .transform((value) => Date.parse(value))
    .nullish()
    .transform((value) => value ?? null),
});

/** A query parameter that must be one of `values` when present. */
function oneOf<const T extends readonly [string, ...string[]]>(field: string, values: T) {
  return z.enum(values, { error: `The ${label(field)} field must be one of: ${values.join(', ')}.` }).optional();
}

/** An optional positive integer id in the query, as the string the URL carries. */
function queryId(field: string) {
  return z
    .string({ error: `The ${label(field)} field must be an integer.` })
    .regex(/^[1-9]\d{0,15}$/, `The ${label(field)} field must be a positive integer.`)
    .transform(Number)
    .optional();
}

/** GET /api/monitors?status=&project_id=. */
export const monitorListQuery = z.object({
  status: oneOf('status', MONITOR_STATUSES),
  project_id: queryId('project_id'),
});

/** An optional positive integer query parameter, as the string the URL carries. */
function pageNumber(field: string, max: number) {
  return z
    .string({ error: `The ${label(field)} field must be an integer.` })
    .regex(/^\d{1,9}$/, `The ${label(field)} field must be an integer.`)
    .transform(Number)
    .refine((n) => n >= 1, `The ${label(field)} field must be at least 1.`)
    .refine((n) => n <= max, `The ${label(field)} field must not be greater than ${max}.`)
    .optional();
}

/** A pulse's query: `rid` pairs a start with its end. */
export const pulseQuery = z.object({
  rid: z
    .string({ error: 'The rid field must be a string.' })
    .max(200, 'The rid field must not be greater than 200 characters.')
    .optional()
    .transform((value) => value || null),
});

export const pageQuery = z.object({
  page: pageNumber('page', 100_000_000),
  per_page: pageNumber('per_page', 100),
});
export type PageQuery = z.infer<typeof pageQuery>;

/**
 * GET /api/notifications: a page, `unread=1` for unread ones only, and `kinds=all` for
 * Cronbeat's own kinds besides the spec's two (the default, `kinds=spec`).
 */
export const notificationListQuery = pageQuery.extend({
  unread: oneOf('unread', ['1', '0', 'true', 'false']).transform((value) => value === '1' || value === 'true'),
  kinds: oneOf('kinds', ['spec', 'all']).transform((value) => value ?? 'spec'),
});

/** PATCH /api/notifications/{id}. */
export const notificationReadInput = z.object({
  read: z.boolean({ error: 'The read field must be true or false.' }),
});

/*
 * TLS certificates (issue 5). A hostname is stored as the ASCII (punycode) DNS name, lowercase
 * and without a trailing dot, or as the IP address; a URL, a port or a path is refused.
 */

const DNS_LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/** The hostname as stored, or null when it is neither an IP address nor a DNS name. */
export function normalizeHostname(raw: string): string | null {
  const unbracketed = raw.replace(/^\[(.*)\]$/, '$1');
  if (isIP(unbracketed)) return unbracketed.toLowerCase();
  // domainToASCII parses like a URL host ("a.com/x" gives "a.com"), so refuse URL syntax first.
  if (/[/\\?#@:%\s]/.test(raw)) return null;
  const ascii = domainToASCII(raw.replace(/\.$/, ''));
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  // An all-digit last label is a mistyped IP address, never a DNS name.
  if (!labels.every((l) => DNS_LABEL.test(l)) || /^\d+$/.test(labels[labels.length - 1])) return null;
  return ascii;
}

/** An optional integer between min and max; absent or null gives `fallback`. */
function optionalInteger(field: string, min: number, max: number, fallback: number) {
  return z
    .number({ error: `The ${label(field)} field must be an integer.` })
    .int(`The ${label(field)} field must be an integer.`)
    .min(min, `The ${label(field)} field must be between ${min} and ${max}.`)
    .max(max, `The ${label(field)} field must be between ${min} and ${max}.`)
    .nullish()
    .transform((value) => value ?? fallback);
}

export const certificateInput = z.object({
  hostname: requiredString('hostname', 255).transform((raw, context) => {
    const hostname = normalizeHostname(raw);
    if (hostname) return hostname;
    context.addIssue({
      code: 'custom',
      message: 'The hostname field must be a DNS name or an IP address, without scheme, port or path.',
    });
    return z.NEVER;
  }),
  port: optionalInteger('port', 1, 65_535, 443),
  warn_days: optionalInteger('warn_days', 1, 365, 14),
});
export type CertificateInput = z.infer<typeof certificateInput>;
