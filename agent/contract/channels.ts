import { z } from 'zod';
import { CHANNEL_KINDS, type ChannelKind } from '../domain/channels/kinds';
import { clockTimeOf, emailAddressesOf, timeZoneOf } from './peopleInputs';
import { remindEveryHoursInput } from './reminders';
import { httpUrl, isHttpUrl, label, nameString, optionalString, requiredString } from './fields';
import type { QuietHours } from '../domain/channels/delivery';

/*
 * Notification channels (issue 14): each kind's settings, then the channel around them.
 */

/** One address or a list, as nodemailer sends them (agent/contract/peopleInputs.ts). */
function emailAddresses(field: string, options: { many: boolean }) {
  return requiredString(field, 1000).transform(emailAddressesOf(field, options));
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

/** An optional http(s) address that paths are added to: absent, null and "" give undefined; no trailing slash. */
function optionalBaseUrl(field: string) {
  return z
    .string({ error: `The ${label(field)} field must be a string.` })
    .trim()
    .refine((v) => v === '' || isHttpUrl(v), `The ${label(field)} field must be an http or https URL.`)
    .refine(...noCredentials(field))
    .nullish()
    .transform((v) => (v ? v.replace(/\/+$/, '') : undefined));
}

/**
 * Every kind's mask_secrets: secrets in job output are masked in what the channel is sent
 * (agent/domain/channels/secretMask.ts) unless it is false. Absent (the default) means true, so channels
 * made before it show the same settings; null removes it.
 */
const maskSecrets = z
  .boolean({ error: 'The mask secrets field must be true or false.' })
  .nullish()
  .transform((v) => v ?? undefined);

export const CHANNEL_SETTINGS = {
  webhook: z.object({
    url: httpUrl('url'),
    // Absent on create: the agent makes one and shows it once (routes/channels.ts).
    secret: optionalString('secret', 256).refine((v) => v === undefined || v.length >= 16, {
      message: 'The secret field must be at least 16 characters.',
    }),
    mask_secrets: maskSecrets,
  }),
  ntfy: z.object({
    server_url: optionalBaseUrl('server_url'),
    topic: requiredString('topic', 64).regex(
      /^[A-Za-z0-9_-]+$/,
      'The topic field may only contain letters, digits, dashes and underscores.',
    ),
    access_token: optionalString('access_token', 512),
    mask_secrets: maskSecrets,
  }),
  slack: z.object({ webhook_url: httpUrl('webhook_url').refine(...noCredentials('webhook_url')), mask_secrets: maskSecrets }),
  discord: z.object({ webhook_url: httpUrl('webhook_url').refine(...noCredentials('webhook_url')), mask_secrets: maskSecrets }),
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
    mask_secrets: maskSecrets,
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
    api_url: optionalBaseUrl('api_url'),
    mask_secrets: maskSecrets,
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

const channelName = nameString('name', 255);

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

/** A notification channel as the API shows it: secrets masked (agent/domain/channels/kinds.ts). */
export interface ChannelResource {
  id: number;
  company_id: number;
  name: string;
  kind: ChannelKind;
  settings: Record<string, unknown>;
  quiet_hours: QuietHours | null;
  /** Every how many hours a still-failed monitor's alert is sent again (issue 21.14); null: never. */
  remind_every_hours: number | null;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}
