/**
 * What the rules about a channel's secrets need to know of its kind; each kind's description
 * (agent/contract/channels/kinds/) says it.
 */
export interface ChannelSecretRules {
  /** Settings that are secrets: never shown back, kept when a PATCH leaves them out. */
  secrets: readonly string[];
  /**
   * The settings that say where a channel sends: changing one of them sends the channel's secrets
   * to a new place, so the PATCH must give those secrets again (a webhook's URL brings its own
   * user:pass@; Slack's and Discord's URLs are the secret themselves).
   */
  destination: readonly string[];
  /** The setting whose URL may carry user:pass@ (a webhook's, sent as Basic auth): its password is a secret too. */
  urlWithCredentials?: string;
  /**
   * Settings shown back to a key that may write (it set them) but that work as a credential for
   * anyone else: ntfy's topic, which on ntfy.sh is the topic's only password. A read-only key reads
   * the mask.
   */
  hiddenFromReaders?: readonly string[];
}

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

/** `settings` with every secret of its kind masked, and a webhook URL's password. */
export function maskedSettings(kind: ChannelSecretRules, settings: Record<string, unknown>): Record<string, unknown> {
  const shown = { ...settings };
  for (const field of kind.secrets) shown[field] = maskSecret(settings[field]);
  if (kind.urlWithCredentials) shown[kind.urlWithCredentials] = maskUrlPassword(settings[kind.urlWithCredentials]);
  return shown;
}

/** A http(s) URL's origin when it says more than that (a path, a query, a user), else null. */
function originOfLongerUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.href === `${url.origin}/` ? null : url.origin;
  } catch {
    return null;
  }
}

/**
 * What settingsForReaders hides (the URLs among `destination` that say more than their origin, and
 * the settings hidden from readers), to be redacted from texts a reader sees too.
 */
export function valuesHiddenFromReaders(kind: ChannelSecretRules, settings: Record<string, unknown>): string[] {
  const urls = kind.destination.flatMap((field) => (originOfLongerUrl(settings[field]) === null ? [] : [String(settings[field])]));
  const others = (kind.hiddenFromReaders ?? []).flatMap((field) => (typeof settings[field] === 'string' && settings[field] ? [settings[field]] : []));
  return [...urls, ...others];
}

/**
 * The settings as a key that may only read sees them: secrets masked, and each URL it sends to
 * (`destination`) as its origin alone. A receiver's URL is often its credential (Home Assistant's
 * webhook id, Zapier's catch hook, a `?token=`) that lets whoever has it send as Cronbeat, so,
 * like a monitor's pulse token, only a key that may write is shown it.
 */
export function settingsForReaders(kind: ChannelSecretRules, settings: Record<string, unknown>): Record<string, unknown> {
  const shown = maskedSettings(kind, settings);
  for (const field of kind.destination) {
    const origin = originOfLongerUrl(settings[field]);
    if (origin !== null) shown[field] = `${origin}/${MASK}`;
  }
  for (const field of kind.hiddenFromReaders ?? []) if (typeof settings[field] === 'string') shown[field] = MASK;
  return shown;
}

/**
 * The settings a PATCH asks for: the stored ones, overwritten by each field sent, except secrets
 * sent as their mask or left out (kept) — so a client never needs to know a secret to edit the rest.
 * A webhook URL sent back as shown (its password masked) is the stored one.
 */
export function mergeSettings(kind: ChannelSecretRules, stored: Record<string, unknown>, sent: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored, ...sent };
  for (const field of kind.secrets) {
    if (!(field in sent) || isMasked(sent[field])) merged[field] = stored[field];
  }
  const url = kind.urlWithCredentials;
  if (url && sent[url] !== undefined && sent[url] === maskUrlPassword(stored[url])) merged[url] = stored[url];
  return merged;
}
