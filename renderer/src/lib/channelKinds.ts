import { findTimeZone } from '../../../agent/domain/time/timeZones';
import type { ChannelKind } from '../api/types';
import type { ChannelBody } from '../api/endpoints';
import { CHANNEL_KINDS, channelKind } from '../../../agent/contract/channels';
import { changedFields } from './formRules';

/*
 * The form of each kind of channel, from the kind's description (agent/contract/channels/kinds/):
 * its fields named as the API names them (e.g. "settings.url"), so the API's schemas check them
 * as the admin types and its 422 lands next to the same field.
 */

export interface ChannelField {
  /** The API's field name, e.g. "settings.url". */
  name: string;
  label: string;
  placeholder?: string;
  hint?: string;
  /** Write-only: never shown back; left empty on an edit, it is kept. */
  secret?: boolean;
  options?: string[];
  initial?: string;
}

/** Every kind, in the order the dashboard offers them. */
export const KINDS: readonly ChannelKind[] = CHANNEL_KINDS;

/** A kind as people name it ("Slack"). */
export const kindLabel = (kind: ChannelKind): string => channelKind(kind).label;

/** The fields of `kind`'s form; its secrets are write-only. */
export function channelFields(kind: ChannelKind): ChannelField[] {
  const { form, secrets } = channelKind(kind);
  return form.map(({ setting, ...field }) => ({ ...field, name: `settings.${setting}`, ...(secrets.includes(setting) ? { secret: true } : {}) }));
}

/** Where `channel` points, without its secrets (the API masks them). */
export const channelWhere = (channel: { kind: ChannelKind; settings: Record<string, unknown> }): string => channelKind(channel.kind).where(channel.settings);

export const QUIET_FIELDS = ['quiet_hours.start', 'quiet_hours.end', 'quiet_hours.timezone'] as const;

/** Masking secrets in job output: "true" (the default, sent as nothing) or "false" (agent/domain/channels/secretMask.ts). */
export const MASK_FIELD = 'settings.mask_secrets';

/** Reports (docs/channels.md, "Reports"): how often, at what time, in which zone; off, 08:00 and the agent's zone unless set. */
export const REPORT_FIELDS = ['settings.report', 'settings.report_time', 'settings.report_timezone'] as const;
export const REPORT_FREQUENCY_OPTIONS = ['off', 'daily', 'weekly', 'monthly'];

/** The reminders field: empty (never) or whole hours (agent/contract/reminders.ts). */
export const REMIND_FIELD = 'remind_every_hours';

/**
 * The body a form sends: settings of the kind (numbers as numbers, empty optional fields left
 * out; on an edit, empty secrets left out so they are kept) and the quiet hours or null.
 */
/** A zone as typed: a place ("paris") is its zone, as on the monitor form; anything else goes as it is, for the API to refuse in words. */
export const zoneOfPlace = (typed: string): string => (typed === '' ? typed : (findTimeZone(typed).zone ?? typed));

export function channelBody(kind: ChannelKind, values: Record<string, string>, editing: boolean) {
  const settings: Record<string, unknown> = {};
  for (const field of channelFields(kind)) {
    const value = values[field.name]?.trim() ?? '';
    const key = field.name.slice('settings.'.length);
    if (value === '') {
      if (editing && !field.secret) settings[key] = null;
      continue;
    }
    settings[key] = key === 'port' ? Number(value) : value;
  }
  // On is the default, so a channel that never turned it off keeps settings without it.
  if (values[MASK_FIELD] === 'false') settings.mask_secrets = false;
  else if (editing) settings.mask_secrets = null;
  // Off is the default: a channel that never asked for reports keeps settings without them.
  for (const field of REPORT_FIELDS) {
    const value = values[field]?.trim() ?? '';
    const key = field.slice('settings.'.length);
    if (value !== '' && !(key === 'report' && value === 'off')) settings[key] = key === 'report_timezone' ? zoneOfPlace(value) : value;
    else if (editing) settings[key] = null;
  }
  const [start, end, typedZone] = QUIET_FIELDS.map((f) => values[f]?.trim() ?? '');
  const timezone = zoneOfPlace(typedZone!);
  const remind = values[REMIND_FIELD]?.trim() ?? '';
  return {
    name: values.name.trim(),
    settings,
    quiet_hours: start || end || timezone ? { start, end, timezone } : null,
    remind_every_hours: remind === '' ? null : Number(remind),
  };
}

/**
 * What an edit of a channel sends: the fields changed since the form opened with `opened`, and of
 * its settings only the keys changed (the agent merges them over the stored ones), so a change made
 * elsewhere meanwhile (another tab, a script) is not put back. Empty when nothing was changed.
 */
export function channelEdit(kind: ChannelKind, opened: Record<string, string>, values: Record<string, string>): ChannelBody {
  const before = channelBody(kind, opened, true);
  const after = channelBody(kind, values, true);
  const { settings, ...rest } = changedFields(before, after);
  const edit: ChannelBody = rest;
  if (settings) edit.settings = changedFields(before.settings, after.settings);
  return edit;
}
