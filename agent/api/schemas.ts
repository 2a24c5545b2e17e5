import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { z } from 'zod';
import { clockTimeOf, emailAddressesOf, timeZoneOf } from '../contract/peopleInputs';
import { checkSchedule } from '../domain/scheduleCheck';
import { MAX_MEASURED_DURATION_MS } from '../domain/pulseInput';
import { CRON_CHANGES } from '../domain/serverAlerts';
import { CHANNEL_KINDS, type ChannelKind } from '../domain/channels';
import { parseZonedTimestamp } from '../domain/zonedTimestamp';
import { remindEveryHoursInput } from '../contract/reminders';
import { MONITOR_STATUSES } from '../engine/monitorState';
import { MAX_TAGS, tagOf } from '../domain/monitorLine';

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

/** A monitor's tags (issue 23): a list of tags (tagOf in agent/domain/monitorLine.ts), stored sorted without repeats. */
function tagsField() {
  const message = 'The tags field must be a list of tags: letters, digits, "_", ".", ":" and "-", up to 50 characters each.';
  return z
    .array(z.string({ error: message }).transform((tag, context) => tagOf(tag) ?? (context.addIssue({ code: 'custom', message }), z.NEVER)), {
      error: message,
    })
    .max(MAX_TAGS, `The tags field must not have more than ${MAX_TAGS} items.`)
    .optional();
}

/**
 * Which channels a monitor, server or certificate alerts (issue 14): a list of channel ids, or
 * null for all of the company's channels. Left out (undefined) it means "all" on create and
 * "unchanged" on edit. That each id is a channel of the company is checked by the route
 * (channelRoutesRepository.checkChannelIds), which knows the company.
 */
export function channelIdsField() {
  return z
    .array(
      z
        .number({ error: 'The channel ids field must be a list of channel ids.' })
        .int('The channel ids field must be a list of channel ids.')
        .min(1, 'The channel ids field must be a list of channel ids.')
        .max(Number.MAX_SAFE_INTEGER, 'The channel ids field must be a list of channel ids.'),
      { error: 'The channel ids field must be a list of channel ids, or null for all channels.' },
    )
    .max(100, 'The channel ids field must not have more than 100 items.')
    .transform((ids) => [...new Set(ids)])
    .nullable()
    .optional();
}

/** The body of the channel_ids PATCH of monitors, servers and certificates. */
export const channelIdsPatch = onlyFields(z.object({ channel_ids: channelIdsField() }))
  .refine((body) => body.channel_ids !== undefined, {
    message: 'The channel ids field is required.',
    path: ['channel_ids'],
  });

export const serverInput = z.object({
  name: requiredString('name', 255),
  ip_address: requiredString('ip_address', 45).refine((value) => isIP(value) !== 0, {
    message: 'The ip address field must be a valid IP address.',
  }),
  identifier: requiredString('identifier', 64).regex(
    /^[A-Za-z0-9._-]+$/,
    'The identifier field may only contain letters, digits, dots, dashes and underscores.',
  ),
  channel_ids: channelIdsField(),
});
export type ServerInput = z.infer<typeof serverInput>;

/**
 * `object`, refusing any field it does not name (validate() answers one error per such field
 * with this message): a misspelt field in a PATCH is a mistake, never silently dropped.
 */
function onlyFields<Shape extends z.ZodRawShape>(object: z.ZodObject<Shape>) {
  const fields = Object.keys(object.shape).join(', ');
  return z.strictObject(object.shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? `This request takes only: ${fields}.` : undefined),
  });
}

/**
 * A PATCH body: any of the create body's fields, each checked as on create, and at least one
 * of them (a body naming none, such as a misspelt field, is a mistake, never a silent success).
 */
function patchOf<Shape extends z.ZodRawShape>(create: z.ZodObject<Shape>) {
  const fields = Object.keys(create.shape);
  return onlyFields(create.partial()).superRefine((body, context) => {
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

/** What `cronbeat crontab watch` sends with every snapshot, changed or not. */
export const serverHeartbeatInput = z.object({
  server_id: requiredString('server_id', 64),
  interval_seconds: requiredInteger('interval_seconds', 1, 86_400)
    .nullish()
    .transform((value) => value ?? null),
  jobs: requiredInteger('jobs', 0, 1_000_000)
    .nullish()
    .transform((value) => value ?? null),
});

export const monitorInput = z.object({
  name: requiredString('name', 255),
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
  duration: requiredInteger('duration', 1, 525_600),
  channel_ids: channelIdsField(),
  tags: tagsField(),
});
export type MonitorInput = z.infer<typeof monitorInput>;

export const monitorPatch = patchOf(monitorInput);
export type MonitorPatch = z.infer<typeof monitorPatch>;

/** The body of POST /api/monitors/{id}/pause: no `until` pauses until resumed; a time snoozes until then. */
export const pauseInput = z.object({
  until: z
    .string({ error: 'The until field must be a date and time such as 2026-03-08T06:40:00Z.' })
    .refine((value) => parseZonedTimestamp(value) !== null, {
      message: 'The until field must be a date and time that exists, with a zone, such as 2026-03-08T06:40:00Z.',
      abort: true,
    })
    .transform((value) => parseZonedTimestamp(value) as number)
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
  tag: z
    .string({ error: 'The tag field must be given once.' })
    .transform((tag, context) => tagOf(tag) ?? (context.addIssue({ code: 'custom', message: 'The tag field must be a tag: letters, digits, "_", ".", ":" and "-".' }), z.NEVER))
    .optional(),
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

/**
 * A pulse's own headers. `Idempotency-Key` (as Stripe and the IETF draft name it; quoted or
 * not) makes a retry count once; `X-Cronbeat-Duration-Ms` is the run's duration as the client
 * measured it. `X-Cronbeat-Sent-At` is read leniently by pulseTime (an unreadable one counts as absent).
 */
export const pulseHeaders = z.object({
  'idempotency-key': z
    .string()
    .transform((value) => value.replace(/^"(.*)"$/, '$1'))
    .pipe(
      z
        .string()
        .regex(/^[\x20-\x7e]{1,255}$/, 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.'),
    )
    .optional()
    .transform((value) => value ?? null),
  'x-cronbeat-duration-ms': z
    .string()
    .regex(/^\d{1,12}$/, 'The X-Cronbeat-Duration-Ms header must be a whole number of milliseconds.')
    .transform(Number)
    .refine((ms) => ms <= MAX_MEASURED_DURATION_MS, 'The X-Cronbeat-Duration-Ms header must not be greater than a year.')
    .optional()
    .transform((value) => value ?? null),
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
  channel_ids: channelIdsField(),
});
export type CertificateInput = z.infer<typeof certificateInput>;

/*
 * Notification channels (issue 14): each kind's settings, then the channel around them.
 */

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function httpUrl(field: string) {
  return requiredString(field, 2048).refine(isHttpUrl, `The ${label(field)} field must be an http or https URL.`);
}

/** False for a URL with user:pass@ (only a webhook's URL may carry them: sent as Basic auth, docs/channels.md). */
function hasNoCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username === '' && url.password === '';
  } catch {
    return true;
  }
}

const noCredentials = (field: string) =>
  [hasNoCredentials, `The ${label(field)} field must not contain a user name or password (user:pass@).`] as const;

/** An optional string; absent, null and "" give undefined. */
function optionalString(field: string, max: number) {
  return z
    .string({ error: `The ${label(field)} field must be a string.` })
    .trim()
    .max(max, `The ${label(field)} field must not be greater than ${max} characters.`)
    .nullish()
    .transform((value) => value || undefined);
}

/** One address or a list, as nodemailer sends them (agent/contract/peopleInputs.ts). */
function emailAddresses(field: string, options: { many: boolean }) {
  return requiredString(field, 1000).transform(emailAddressesOf(field, options));
}

export const CHANNEL_SETTINGS = {
  webhook: z.object({
    url: httpUrl('url'),
    // Absent on create: the agent makes one and shows it once (routes/channels.ts).
    secret: optionalString('secret', 256).refine((v) => v === undefined || v.length >= 16, {
      message: 'The secret field must be at least 16 characters.',
    }),
  }),
  ntfy: z.object({
    server_url: z
      .string({ error: 'The server url field must be a string.' })
      .trim()
      .refine((v) => v === '' || isHttpUrl(v), 'The server url field must be an http or https URL.')
      .refine(...noCredentials('server_url'))
      .nullish()
      .transform((v) => (v ? v.replace(/\/+$/, '') : undefined)),
    topic: requiredString('topic', 64).regex(
      /^[A-Za-z0-9_-]+$/,
      'The topic field may only contain letters, digits, dashes and underscores.',
    ),
    access_token: optionalString('access_token', 512),
  }),
  slack: z.object({ webhook_url: httpUrl('webhook_url').refine(...noCredentials('webhook_url')) }),
  discord: z.object({ webhook_url: httpUrl('webhook_url').refine(...noCredentials('webhook_url')) }),
  email: z.object({
    host: requiredString('host', 255).refine((h) => !/[\s/:@]/.test(h), 'The host field must be a host name or an IP address.'),
    port: z
      .number({ error: 'The port field must be an integer.' })
      .int('The port field must be an integer.')
      .min(1, 'The port field must be between 1 and 65535.')
      .max(65_535, 'The port field must be between 1 and 65535.')
      .nullish()
      .transform((v) => v ?? undefined),
    tls: z
      .enum(['starttls', 'tls', 'none'], { error: 'The tls field must be one of: starttls, tls, none.' })
      .default('starttls'),
    user: optionalString('user', 255),
    password: optionalString('password', 512),
    from: emailAddresses('from', { many: false }),
    to: emailAddresses('to', { many: true }),
  }),
  telegram: z.object({
    bot_token: requiredString('bot_token', 128).regex(
      /^\d+:[A-Za-z0-9_-]+$/,
      'The bot token field must be a token as BotFather gives it, such as "123456:ABC-DEF…".',
    ),
    chat_id: z
      .union([z.string().trim(), z.number().int()], { error: 'The chat id field is required.' })
      .transform(String)
      .refine((v) => /^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/.test(v), {
        message: 'The chat id field must be a numeric chat id or a @channel name.',
      }),
    api_url: z
      .string({ error: 'The api url field must be a string.' })
      .trim()
      .refine((v) => v === '' || isHttpUrl(v), 'The api url field must be an http or https URL.')
      .refine(...noCredentials('api_url'))
      .nullish()
      .transform((v) => (v ? v.replace(/\/+$/, '') : undefined)),
  }),
} satisfies Record<ChannelKind, z.ZodType>;

export type ChannelSettings = { [K in ChannelKind]: z.infer<(typeof CHANNEL_SETTINGS)[K]> };

const quietHoursInput = z
  .object(
    {
      start: requiredString('quiet_hours.start', 5).transform(clockTimeOf('quiet_hours.start', '22:00')),
      end: requiredString('quiet_hours.end', 5).transform(clockTimeOf('quiet_hours.end', '07:00')),
      timezone: requiredString('quiet_hours.timezone', 64).transform(timeZoneOf('quiet_hours.timezone')),
    },
    { error: 'The quiet hours field must be an object with start, end and timezone, or null.' },
  )
  .nullable();

const channelName = requiredString('name', 255);

/** A channel as created; its settings are checked by the kind's own schema (channelSettingsInput). */
export const channelInput = z.object({
  name: channelName,
  kind: z.enum(CHANNEL_KINDS, { error: `The kind field must be one of: ${CHANNEL_KINDS.join(', ')}.` }),
  settings: z.record(z.string(), z.unknown(), { error: 'The settings field must be an object.' }).default({}),
  quiet_hours: quietHoursInput.optional().transform((v) => v ?? null),
  remind_every_hours: remindEveryHoursInput.optional().transform((v) => v ?? null),
});

/** A channel's edit: any of name, settings (merged over the stored ones), quiet hours. */
export const channelPatch = z.object({
  name: channelName.optional(),
  kind: z.undefined({ error: 'The kind field cannot be changed; make a new channel.' }).optional(),
  settings: z.record(z.string(), z.unknown(), { error: 'The settings field must be an object.' }).optional(),
  quiet_hours: quietHoursInput.optional(),
  remind_every_hours: remindEveryHoursInput.optional(),
});

/** The settings of `kind`, with errors named "settings.<field>". */
export function channelSettingsInput<K extends ChannelKind>(kind: K) {
  return z.object({ settings: CHANNEL_SETTINGS[kind] as (typeof CHANNEL_SETTINGS)[K] });
}
