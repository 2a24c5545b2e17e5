/*
 * The public URL: the address the admin opens Cronbeat at from anywhere
 * (https://cron.example.com, behind a proxy, or http://laptop.lan:8787). It is the base of every
 * link in alerts, popups and the dashboard's copy-paste lines, and a host the agent answers to.
 */

/** A public URL as stored: scheme, host, port and path, without a trailing slash. */
export type PublicUrl = string;

/**
 * `input` as a public URL, or the reason it is not one: http or https, a host, no user or
 * password (links are shared), no query or fragment (links are made by appending to it).
 */
export function checkPublicUrl(input: string): { url: PublicUrl } | { error: string } {
  let parsed: URL;
  try {
    parsed = new URL(input.trim());
  } catch {
    return { error: 'must be an absolute http:// or https:// URL, such as https://cron.example.com.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { error: 'must start with http:// or https://.' };
  if (parsed.username || parsed.password) return { error: 'must not carry a user name or password: links in alerts are shared.' };
  if (parsed.search || parsed.hash || input.includes('?') || input.includes('#')) return { error: 'must not have a query (?) or a fragment (#).' };
  const path = parsed.pathname.replace(/\/+$/, '');
  return { url: `${parsed.protocol}//${parsed.host}${path}` };
}

/** The host name a public URL names, as a Host header carries it (lower case, IPv6 in brackets). */
export function publicHostName(url: PublicUrl): string {
  return new URL(url).hostname.toLowerCase();
}
