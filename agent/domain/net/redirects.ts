/*
 * Which redirects a send follows (docs/channels.md, "Redirects"). Pure.
 *
 * 301, 302 and 303 let clients turn a POST into a body-less GET, which loses the alert: they are
 * never followed, and the attempt fails naming the new location so the admin can fix the URL.
 * 307 and 308 keep the method and body: they are followed, up to a few hops. Credentials
 * (Authorization, the webhook's signature, a URL's user:pass@) go only to the configured origin,
 * or to its https upgrade on the same host; a redirect elsewhere is followed without them. An
 * https send is never redirected to plain http.
 */

export type RedirectRule =
  | { kind: 'follow'; to: URL; keepCredentials: boolean }
  | { kind: 'refuse'; error: string };

export interface Redirect {
  status: number;
  /** The answer's Location header; null when it had none. */
  location: string | null;
  /** The URL that answered. */
  from: URL;
  /** The channel's own URL (without user:pass@): where its credentials belong. */
  configured: URL;
  /** How many redirects this send followed already. */
  hop: number;
  maxHops: number;
}

/**
 * True when credentials meant for `configured` may go to `to`: the same origin, or its https
 * upgrade (http on the default port to https on the default port of the same host; another port
 * is another service).
 */
export function mayCarryCredentials(configured: URL, to: URL): boolean {
  if (to.origin === configured.origin) return true;
  return configured.protocol === 'http:' && configured.port === '' && to.protocol === 'https:' && to.hostname === configured.hostname && to.port === '';
}

/** Where a 3xx answer leads, or why it is a failed attempt. */
export function redirectRule(redirect: Redirect): RedirectRule {
  const { status, location, from } = redirect;
  let to: URL | null = null;
  try {
    // An empty Location would resolve to the URL that answered: a loop, not a redirect.
    to = location === null || location.trim() === '' ? null : new URL(location, from);
  } catch {
    to = null;
  }
  if (to === null) return { kind: 'refuse', error: `The receiver answered HTTP ${status} without a usable Location.` };
  const shown = to.href;
  if (status !== 307 && status !== 308) {
    return {
      kind: 'refuse',
      error: `The receiver redirected (HTTP ${status}) to ${shown}. Cronbeat follows only 307 and 308, which keep the POST and its body: change the channel's URL to the new location.`,
    };
  }
  if (to.protocol !== 'http:' && to.protocol !== 'https:') {
    return { kind: 'refuse', error: `The receiver redirected (HTTP ${status}) to ${shown}, which is not an http or https URL.` };
  }
  if (from.protocol === 'https:' && to.protocol === 'http:') {
    return { kind: 'refuse', error: `The receiver redirected (HTTP ${status}) from https to plain http (${shown}); not followed.` };
  }
  if (redirect.hop >= redirect.maxHops) {
    return { kind: 'refuse', error: `Too many redirects (more than ${redirect.maxHops}); the last one led to ${shown}.` };
  }
  to.username = '';
  to.password = '';
  return { kind: 'follow', to, keepCredentials: mayCarryCredentials(redirect.configured, to) };
}
