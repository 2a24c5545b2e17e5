import { z } from 'zod';
import { clockTimeOf, timeZoneOf } from '../peopleInputs';
import { remindEveryHoursInput } from '../reminders';
import { atLeastOneOf, nameString, onlyFields, requiredString } from '../fields';
import type { QuietHours } from '../../domain/channels/delivery';
import { CHANNEL_KIND_DESCRIPTIONS, CHANNEL_KINDS, type ChannelKind } from './kinds';

/*
 * Notification channels: the channel around its kind's settings (each kind is described once, in
 * kinds/).
 */

export { CHANNEL_KINDS, channelKind, DEFAULT_NTFY_SERVER, DEFAULT_TELEGRAM_API, type ChannelKind, type ChannelSettings } from './kinds';

// A field quiet hours do not take (tz beside timezone) is named, never dropped while the rest is saved.
const quietHoursInput = z
  .strictObject(
    {
      start: requiredString('quiet_hours.start', 5).transform(clockTimeOf('quiet_hours.start', '22:00')),
      end: requiredString('quiet_hours.end', 5).transform(clockTimeOf('quiet_hours.end', '07:00')),
      timezone: requiredString('quiet_hours.timezone', 64).transform(timeZoneOf('quiet_hours.timezone')),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? 'Quiet hours take only: start, end, timezone.'
          : 'The quiet hours field must be an object with start, end and timezone, or null.',
    },
  )
  .nullable();

const channelName = nameString('name', 255);

/*
 * Channels are Cronbeat's own resource: a field a body does not take (a misspelt "report" beside
 * the settings that hold it) is refused with a 422 naming it, never dropped while the rest is saved.
 */

/** A channel as created; its settings are checked by the kind's own schema (channelSettingsInput). */
export const channelInput = onlyFields(
  z.object({
    name: channelName,
    kind: z.enum(CHANNEL_KINDS, { error: `The kind field must be one of: ${CHANNEL_KINDS.join(', ')}.` }),
    settings: z.record(z.string(), z.unknown(), { error: 'The settings field must be an object.' }).default({}),
    quiet_hours: quietHoursInput.optional().transform((v) => v ?? null),
    remind_every_hours: remindEveryHoursInput.optional().transform((v) => v ?? null),
  }),
);

const CHANNEL_EDITS = ['name', 'settings', 'quiet_hours', 'remind_every_hours'];

/** A channel's edit: any of name, settings (merged over the stored ones), quiet hours, reminders; at least one. */
export const channelPatch = atLeastOneOf(
  onlyFields(
    z.object({
      name: channelName.optional(),
      kind: z.undefined({ error: 'The kind field cannot be changed; make a new channel.' }).optional(),
      settings: z.record(z.string(), z.unknown(), { error: 'The settings field must be an object.' }).optional(),
      quiet_hours: quietHoursInput.optional(),
      remind_every_hours: remindEveryHoursInput.optional(),
    }),
    CHANNEL_EDITS,
  ),
  CHANNEL_EDITS,
);

/** The settings of `kind`, with errors named "settings.<field>". */
export function channelSettingsInput<K extends ChannelKind>(kind: K) {
  return z.object({ settings: CHANNEL_KIND_DESCRIPTIONS[kind].settings as (typeof CHANNEL_KIND_DESCRIPTIONS)[K]['settings'] });
}

/**
 * The settings a client sent for `kind` (all of them on create, some on an edit, each checked with
 * the whole by channelSettingsInput), refusing any the kind does not take: 422 naming "settings.<field>".
 */
export function channelSettingsSent(kind: ChannelKind) {
  const taken = Object.keys(CHANNEL_KIND_DESCRIPTIONS[kind].settings.shape);
  return z.object({ settings: onlyFields(z.object(Object.fromEntries(taken.map((field) => [field, z.unknown().optional()]))), taken) });
}

/** A notification channel as the API shows it: secrets masked (maskedSettings, agent/domain/channels/settings.ts). */
export interface ChannelResource {
  id: number;
  company_id: number;
  name: string;
  kind: ChannelKind;
  settings: Record<string, unknown>;
  quiet_hours: QuietHours | null;
  /** Every how many hours a still-failed monitor's alert is sent again; null: never. */
  remind_every_hours: number | null;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}
