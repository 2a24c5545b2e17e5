import { z } from 'zod';
import { controlCharacterProblem, isHttpUrl, label } from '../../fields';
import { clockTimeOf, timeZoneOf } from '../../peopleInputs';
import { REPORT_FREQUENCIES } from '../../../domain/reports/period';
import type { ChannelSecretRules } from '../../../domain/channels/settings';

/*
 * What a channel kind is, said once and read by the API, the rules about secrets (agent/domain/
 * channels.ts), the dashboard's form and lists: its name for people, its settings' schema, which
 * settings are secrets and which say where it sends. Pure data and zod, so the dashboard loads it
 * too. How it sends is the engine's (agent/engine/delivery/kinds/<kind>/).
 */

/** One field of the dashboard's form for a kind, named by its setting (the form sends it as "settings.<setting>"). */
export interface ChannelFormField {
  setting: string;
  label: string;
  placeholder?: string;
  hint?: string;
  options?: string[];
  initial?: string;
}

export interface ChannelKindDescription<Settings extends z.ZodObject = z.ZodObject> extends ChannelSecretRules {
  /** The kind as people name it ("Slack"). */
  label: string;
  /** Its settings, with errors named after each field. */
  settings: Settings;
  secrets: readonly (keyof z.output<Settings> & string)[];
  destination: readonly (keyof z.output<Settings> & string)[];
  hiddenFromReaders?: readonly (keyof z.output<Settings> & string)[];
  /** The dashboard's form, in order; each secret setting is write-only there. */
  form: readonly ChannelFormField[];
  /** Where the channel points, for a list, from its settings as the API shows them (secrets masked). */
  where(settings: Record<string, unknown>): string;
}

/** A description, checked against its own settings (a secret or destination that is not a setting does not compile). */
export const describeKind = <Settings extends z.ZodObject>(description: ChannelKindDescription<Settings>) => description;

/** False for a URL with user:pass@ (only a webhook's URL may carry them: sent as Basic auth, docs/channels.md). */
function hasNoCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username === '' && url.password === '';
  } catch {
    return true;
  }
}

export const noCredentials = (field: string) =>
  [hasNoCredentials, `The ${label(field)} field must not contain a user name or password (user:pass@).`] as const;

/**
 * Refuses a control character, a bidi override or a lone surrogate in a secret or an address a
 * channel sends to: a URL parser drops or encodes it unseen, a lone surrogate has no UTF-8 at all,
 * so what would be sent is not what was given, and masking it in the receivers' echoes would fail.
 */
export const noControlCharacters = (field: string) => (value: string | undefined, context: z.RefinementCtx) => {
  const problem = value === undefined ? undefined : controlCharacterProblem(field, value);
  if (problem) context.addIssue({ code: 'custom', message: problem });
};

/** True for an address without a query or a fragment (a path added after one would land in it). */
const hasNoQuery = (value: string) => !/[?#]/.test(value);

/** An optional http(s) address that paths are added to: absent, null and "" give undefined; no trailing slash. */
export function optionalBaseUrl(field: string) {
  return z
    .string({ error: `The ${label(field)} field must be a string.` })
    .trim()
    .superRefine(noControlCharacters(field))
    .refine((v) => v === '' || isHttpUrl(v), `The ${label(field)} field must be an http or https URL.`)
    .refine(...noCredentials(field))
    // Telegram's path (with the bot token) would follow the ?, sent as a query string instead of the method.
    .refine(hasNoQuery, `The ${label(field)} field must be an address without ? or #: Cronbeat adds the path itself.`)
    .nullish()
    .transform((v) => (v ? v.replace(/\/+$/, '') : undefined));
}

/**
 * Every kind's mask_secrets: secrets in job output are masked in what the channel is sent
 * (agent/domain/channels/secretMask.ts) unless it is false. Absent (the default) means true, so channels
 * made before it show the same settings; null removes it.
 */
export const maskSecrets = z
  .boolean({ error: 'The mask secrets field must be true or false.' })
  .nullish()
  .transform((v) => v ?? undefined);

/**
 * Every kind's report settings (docs/channels.md, "Reports"): how often (off unless asked), at what
 * time of day and in which zone (the agent's when absent). Absent stays absent, so channels made
 * before show the same settings; null removes one.
 */
export const reportSettings = {
  report: z
    .enum(REPORT_FREQUENCIES, { error: `The report field must be one of: ${REPORT_FREQUENCIES.join(', ')}.` })
    .nullish()
    .transform((v) => v ?? undefined),
  report_time: z
    .string({ error: 'The report time field must be a time such as 08:00.' })
    .trim()
    .transform(clockTimeOf('report_time', '08:00'))
    .nullish()
    .transform((v) => v ?? undefined),
  report_timezone: z
    .string({ error: 'The report timezone field must be a time zone such as Europe/Berlin.' })
    .trim()
    .max(64, 'The report timezone field must not be greater than 64 characters.')
    .transform(timeZoneOf('report_timezone'))
    .nullish()
    .transform((v) => v ?? undefined),
};

/** A setting as a list shows it: its text, or "" when unset. */
export const shown = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
