import { MAX_REMIND_EVERY_HOURS } from '../../../agent/domain/reminders';
import type { ChannelKind } from '../api/types';
import { parseClockTime } from '../../../agent/domain/clockTime';
import { parseEmailAddresses } from '../../../agent/domain/emailAddresses';

/*
 * The form of each kind of channel: its fields, with the checks the API makes, so the form can
 * answer as the admin types (the API's 422 still lands next to the same field: names are the
 * API's, e.g. "settings.url").
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
  check: (value: string) => string | undefined;
}

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

const url = (what: string, optional = false) => (v: string) =>
  !v.trim() ? (optional ? undefined : `Enter ${what}.`) : isHttpUrl(v.trim()) ? undefined : 'An http:// or https:// address.';
const optional = () => undefined;

export const CHANNEL_KIND_LABELS: Record<ChannelKind, string> = {
  webhook: 'Webhook',
  ntfy: 'ntfy',
  slack: 'Slack',
  discord: 'Discord',
  email: 'Email',
  telegram: 'Telegram',
};

export const CHANNEL_FIELDS: Record<ChannelKind, ChannelField[]> = {
  webhook: [
    { name: 'settings.url', label: 'URL', placeholder: 'https://example.com/cronbeat-hook', check: url('the address to POST to') },
    {
      name: 'settings.secret',
      label: 'Signing secret',
      secret: true,
      hint: 'Leave empty and Cronbeat makes one (shown once). Each body is signed with it in X-Cronbeat-Signature.',
      check: (v) => (v && v.length < 16 ? 'At least 16 characters.' : undefined),
    },
  ],
  ntfy: [
    { name: 'settings.server_url', label: 'Server', placeholder: 'https://ntfy.sh', hint: 'Empty: the public ntfy.sh.', check: url('', true) },
    {
      name: 'settings.topic',
      label: 'Topic',
      placeholder: 'my-cron-alerts-5f2c',
      hint: 'On ntfy.sh anyone who knows a topic can read it: pick one hard to guess.',
      check: (v) => (!v.trim() ? 'Enter a topic.' : /^[A-Za-z0-9_-]{1,64}$/.test(v.trim()) ? undefined : 'Letters, digits, - and _ only.'),
    },
    { name: 'settings.access_token', label: 'Access token', secret: true, hint: 'Only for a protected topic.', check: optional },
  ],
  slack: [
    { name: 'settings.webhook_url', label: 'Incoming webhook URL', secret: true, placeholder: 'https://hooks.slack.com/services/…', check: url('the webhook URL') },
  ],
  discord: [
    { name: 'settings.webhook_url', label: 'Webhook URL', secret: true, placeholder: 'https://discord.com/api/webhooks/…', check: url('the webhook URL') },
  ],
  email: [
    { name: 'settings.host', label: 'SMTP host', placeholder: 'smtp.example.com', check: (v) => (!v.trim() ? 'Enter the SMTP host.' : /[\s/:@]/.test(v) ? 'A host name, without scheme or port.' : undefined) },
    { name: 'settings.port', label: 'Port', placeholder: '587', hint: 'Empty: 587 for STARTTLS, 465 for TLS, 25 without.', check: (v) => (!v.trim() || (/^\d+$/.test(v) && +v >= 1 && +v <= 65535) ? undefined : 'A port from 1 to 65535.') },
    { name: 'settings.tls', label: 'Encryption', options: ['starttls', 'tls', 'none'], initial: 'starttls', check: optional },
    { name: 'settings.user', label: 'User', check: optional },
    { name: 'settings.password', label: 'Password', secret: true, check: optional },
    { name: 'settings.from', label: 'From', placeholder: 'cronbeat@example.com', check: (v) => (parseEmailAddresses(v)?.length === 1 ? undefined : 'One email address, such as cronbeat@example.com or Cronbeat <cronbeat@example.com>.') },
    { name: 'settings.to', label: 'To', placeholder: 'ops@example.com, me@example.com', check: (v) => (parseEmailAddresses(v) ? undefined : 'Email addresses, separated by commas, such as me@localhost, Ops <ops@example.com>.') },
  ],
  telegram: [
    { name: 'settings.bot_token', label: 'Bot token', secret: true, placeholder: '123456:ABC-DEF…', hint: 'From @BotFather.', check: (v) => (/^\d+:[A-Za-z0-9_-]+$/.test(v.trim()) ? undefined : 'A token as BotFather gives it, such as 123456:ABC-DEF…') },
    { name: 'settings.chat_id', label: 'Chat id', placeholder: '-1001234567890', hint: 'A numeric chat id or a @channel name.', check: (v) => (/^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/.test(v.trim()) ? undefined : 'A numeric chat id or a @channel name.') },
    { name: 'settings.api_url', label: 'Bot API address', placeholder: 'https://api.telegram.org', hint: 'Empty: Telegram\'s own. Set it for a Bot API server of your own.', check: url('', true) },
  ],
};

export const QUIET_FIELDS = ['quiet_hours.start', 'quiet_hours.end', 'quiet_hours.timezone'] as const;

/** The reminders field: empty (never) or whole hours from 1 to MAX_REMIND_EVERY_HOURS. */
export const REMIND_FIELD = 'remind_every_hours';

export function checkRemindEvery(value: string | undefined): string | undefined {
  const text = value?.trim() ?? '';
  if (text === '') return undefined;
  const hours = Number(text);
  return /^\d+$/.test(text) && hours >= 1 && hours <= MAX_REMIND_EVERY_HOURS ? undefined : `Whole hours from 1 to ${MAX_REMIND_EVERY_HOURS}, or empty for never.`;
}

/** The quiet hours' checks: all three empty (none) or all three set. */
export function checkQuietHours(values: Record<string, string>): Record<string, string | undefined> {
  const [start, end, zone] = QUIET_FIELDS.map((f) => values[f]?.trim() ?? '');
  if (!start && !end && !zone) return {};
  return {
    'quiet_hours.start': parseClockTime(start) ? undefined : 'A time such as 22:00.',
    'quiet_hours.end': parseClockTime(end) ? undefined : 'A time such as 07:00.',
    'quiet_hours.timezone': zone ? undefined : 'A time zone, e.g. Europe/Paris.',
  };
}

/**
 * The body a form sends: settings of the kind (numbers as numbers, empty optional fields left
 * out; on an edit, empty secrets left out so they are kept) and the quiet hours or null.
 */
export function channelBody(kind: ChannelKind, values: Record<string, string>, editing: boolean) {
  const settings: Record<string, unknown> = {};
  for (const field of CHANNEL_FIELDS[kind]) {
    const value = values[field.name]?.trim() ?? '';
    const key = field.name.slice('settings.'.length);
    if (value === '') {
      if (editing && !field.secret) settings[key] = null;
      continue;
    }
    settings[key] = key === 'port' ? Number(value) : value;
  }
  const [start, end, timezone] = QUIET_FIELDS.map((f) => values[f]?.trim() ?? '');
  const remind = values[REMIND_FIELD]?.trim() ?? '';
  return {
    name: values.name.trim(),
    settings,
    quiet_hours: start || end || timezone ? { start, end, timezone } : null,
    remind_every_hours: remind === '' ? null : Number(remind),
  };
}
