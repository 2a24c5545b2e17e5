/** The kinds of notification channel (issue 14); each has its own settings, validated in api/schemas.ts. */
export const CHANNEL_KINDS = ['webhook', 'ntfy', 'slack', 'discord', 'email', 'telegram'] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export const DEFAULT_NTFY_SERVER = 'https://ntfy.sh';
export const DEFAULT_TELEGRAM_API = 'https://api.telegram.org';

/** Settings that are secrets: never shown back, kept when a PATCH leaves them out. */
export const SECRET_SETTINGS: Record<ChannelKind, readonly string[]> = {
  webhook: ['secret'],
  ntfy: ['access_token'],
  slack: ['webhook_url'],
  discord: ['webhook_url'],
  email: ['password'],
  telegram: ['bot_token'],
};

/** What a response shows instead of a secret; sent back in a PATCH, it means "keep it". */
export const MASK = '********';

/**
 * A secret as shown: null when unset, else the mask. A URL that is itself the secret (Slack and
 * Discord webhooks) keeps its origin, so the admin can tell which service it points at.
 */
export function maskSecret(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return `${url.origin}/${MASK}`;
  } catch {
    // not a URL: mask it whole
  }
  return MASK;
}

/** True for a value that is a mask this agent showed, so a PATCH sending it back keeps the secret. */
export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && (value === MASK || value.endsWith(`/${MASK}`));
}

/**
 * A URL with the password of its user:pass@ masked (a webhook behind Basic auth); any other
 * value as it is.
 */
export function maskUrlPassword(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    const url = new URL(value);
    if (!url.password) return value;
    url.password = MASK;
    return url.href;
  } catch {
    return value;
  }
}

/** `settings` with every secret masked, and a webhook URL's password. */
export function maskedSettings(kind: ChannelKind, settings: Record<string, unknown>): Record<string, unknown> {
  const shown = { ...settings };
  for (const field of SECRET_SETTINGS[kind]) shown[field] = maskSecret(settings[field]);
  if (kind === 'webhook') shown.url = maskUrlPassword(settings.url);
  return shown;
}

/**
 * The settings a PATCH asks for: the stored ones, overwritten by each field sent, except secrets
 * sent as their mask or left out (kept) — so a client never needs to know a secret to edit the rest.
 * A webhook URL sent back as shown (its password masked) is the stored one.
 */
export function mergeSettings(
  kind: ChannelKind,
  stored: Record<string, unknown>,
  sent: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored, ...sent };
  for (const field of SECRET_SETTINGS[kind]) {
    if (!(field in sent) || isMasked(sent[field])) merged[field] = stored[field];
  }
  if (kind === 'webhook' && sent.url !== undefined && sent.url === maskUrlPassword(stored.url)) merged.url = stored.url;
  return merged;
}

/** What a notification is about, for routing: a monitor, a certificate or a server. */
export type SubjectType = 'monitor' | 'ssl_certificate' | 'server';

/**
 * How a notification counts for routing: a recovery (a monitor recovered, a certificate valid
 * again, a quiet server reporting again) goes where the subject's last failure went; a failure
 * (a server gone quiet too) is remembered for that; anything else (a server's cron change) is
 * routed on its own.
 */
export function routingEvent(data: { type: SubjectType; status: string }): 'failure' | 'recovery' | 'other' {
  if (data.type === 'server') return data.status === 'quiet' ? 'failure' : data.status === 'reporting' ? 'recovery' : 'other';
  if (data.status === 'recovered' || data.status === 'valid') return 'recovery';
  if (data.type === 'ssl_certificate' && data.status === 'pending') return 'other';
  return 'failure';
}
