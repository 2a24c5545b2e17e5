import { z } from 'zod';
import { clockTimeOf, timeZoneOf } from '../peopleInputs';
import { remindEveryHoursInput } from '../reminders';
import { nameString, requiredString } from '../fields';
import type { QuietHours } from '../../domain/channels/delivery';
import { CHANNEL_KIND_DESCRIPTIONS, CHANNEL_KINDS, type ChannelKind } from './kinds';

/*
 * Notification channels: the channel around its kind's settings (each kind is described once, in
 * kinds/).
 */

export { CHANNEL_KINDS, channelKind, DEFAULT_NTFY_SERVER, DEFAULT_TELEGRAM_API, type ChannelKind, type ChannelSettings } from './kinds';

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
  return z.object({ settings: CHANNEL_KIND_DESCRIPTIONS[kind].settings as (typeof CHANNEL_KIND_DESCRIPTIONS)[K]['settings'] });
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
