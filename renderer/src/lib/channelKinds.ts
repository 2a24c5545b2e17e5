import type { ChannelKind } from '../api/types';

/*
 * The form of each kind of channel: its fields, named as the API names them (e.g. "settings.url"),
 * so the API's schemas (agent/contract/channels.ts) check them as the admin types and its 422
 * lands next to the same field.
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
    { name: 'settings.url', label: 'URL', placeholder: 'https://example.com/cronbeat-hook' },
    {
      name: 'settings.secret',
      label: 'Signing secret',
      secret: true,
      hint: 'Leave empty and Cronbeat makes one (shown once). Each body is signed with it in X-Cronbeat-Signature.',
    },
  ],
  ntfy: [
    { name: 'settings.server_url', label: 'Server', placeholder: 'https://ntfy.sh', hint: 'Empty: the public ntfy.sh.' },
    {
      name: 'settings.topic',
      label: 'Topic',
      placeholder: 'my-cron-alerts-5f2c',
      hint: 'On ntfy.sh anyone who knows a topic can read it: pick one hard to guess.',
    },
    { name: 'settings.access_token', label: 'Access token', secret: true, hint: 'Only for a protected topic.' },
  ],
  slack: [
    { name: 'settings.webhook_url', label: 'Incoming webhook URL', secret: true, placeholder: 'https://hooks.slack.com/services/…' },
  ],
  discord: [
    { name: 'settings.webhook_url', label: 'Webhook URL', secret: true, placeholder: 'https://discord.com/api/webhooks/…' },
  ],
  email: [
    { name: 'settings.host', label: 'SMTP host', placeholder: 'smtp.example.com' },
    { name: 'settings.port', label: 'Port', placeholder: '587', hint: 'Empty: 587 for STARTTLS, 465 for TLS, 25 without.' },
    { name: 'settings.tls', label: 'Encryption', options: ['starttls', 'tls', 'none'], initial: 'starttls' },
    { name: 'settings.user', label: 'User' },
    { name: 'settings.password', label: 'Password', secret: true },
    { name: 'settings.from', label: 'From', placeholder: 'cronbeat@example.com' },
    { name: 'settings.to', label: 'To', placeholder: 'ops@example.com, me@example.com' },
  ],
  telegram: [
    { name: 'settings.bot_token', label: 'Bot token', secret: true, placeholder: '123456:ABC-DEF…', hint: 'From @BotFather.' },
    { name: 'settings.chat_id', label: 'Chat id', placeholder: '-1001234567890', hint: 'A numeric chat id or a @channel name.' },
    { name: 'settings.api_url', label: 'Bot API address', placeholder: 'https://api.telegram.org', hint: 'Empty: Telegram\'s own. Set it for a Bot API server of your own.' },
  ],
};

export const QUIET_FIELDS = ['quiet_hours.start', 'quiet_hours.end', 'quiet_hours.timezone'] as const;

/** Masking secrets in job output: "true" (the default, sent as nothing) or "false" (agent/domain/channels/secretMask.ts). */
export const MASK_FIELD = 'settings.mask_secrets';

/** The reminders field: empty (never) or whole hours (agent/contract/reminders.ts). */
export const REMIND_FIELD = 'remind_every_hours';

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
  // On is the default, so a channel that never turned it off keeps settings without it.
  if (values[MASK_FIELD] === 'false') settings.mask_secrets = false;
  else if (editing) settings.mask_secrets = null;
  const [start, end, timezone] = QUIET_FIELDS.map((f) => values[f]?.trim() ?? '');
  const remind = values[REMIND_FIELD]?.trim() ?? '';
  return {
    name: values.name.trim(),
    settings,
    quiet_hours: start || end || timezone ? { start, end, timezone } : null,
    remind_every_hours: remind === '' ? null : Number(remind),
  };
}
