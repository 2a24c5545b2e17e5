/** Where the agent listens when nothing else is said: the desktop app's default port on loopback. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

/** A base URL that is not an http(s) address; the message says which value was wrong. */
export class InvalidBaseUrlError extends Error {}

/**
 * The agent's base URL: `flag` (--url), else CRONBEAT_URL, else DEFAULT_BASE_URL, without a
 * trailing slash so paths can be appended. Throws InvalidBaseUrlError for anything but http(s).
 */
export function resolveBaseUrl(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const [value, from] = flag ? [flag, '--url'] : env.CRONBEAT_URL ? [env.CRONBEAT_URL, 'CRONBEAT_URL'] : [DEFAULT_BASE_URL, 'default'];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidBaseUrlError(`${from} "${value}" is not a URL; use one such as ${DEFAULT_BASE_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidBaseUrlError(`${from} "${value}" must start with http:// or https://`);
  }
  // Paths are appended to the base: after a query or a fragment they would land in it, and every
  // request would fetch the dashboard's page instead.
  if (url.search || url.hash) {
    const [what, part] = url.search ? ['a query', url.search] : ['a fragment', url.hash];
    throw new InvalidBaseUrlError(`${from} "${value}" has ${what} (${part}): give the agent's address alone, such as ${DEFAULT_BASE_URL}`);
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * `baseUrl` for messages: its password (an agent behind a proxy's basic auth) written as ***, so
 * what a follower prints to a terminal, a log or a journal never holds it.
 */
export function shownUrl(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (url.password === '') return baseUrl;
    url.password = '***';
    return url.href.replace(/\/+$/, '');
  } catch {
    return baseUrl;
  }
}
