/** A "connect to an agent" request from the dashboard, checked before anything is sent anywhere. */
export type ConnectRequest = { ok: true; url: string; key: string } | { ok: false; message: string };

/**
 * The agent's base URL (http or https, no credentials: its origin, and the path of a proxy that
 * serves it under one, such as https://example.com/cronbeat; a pasted dashboard address's
 * fragment and query dropped) and the key, from what the settings form sent; a clear message
 * naming the field otherwise.
 */
export function connectRequest(input: unknown): ConnectRequest {
  const { url, key } = (input ?? {}) as { url?: unknown; key?: unknown };
  if (typeof url !== 'string' || url.trim() === '') return { ok: false, message: 'url: give the agent’s address, such as https://cronbeat.example.com.' };
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return { ok: false, message: `url: "${url.slice(0, 100)}" is not an address; use one such as http://backup-box:8787.` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, message: 'url: must start with http:// or https://.' };
  if (parsed.username || parsed.password) return { ok: false, message: 'url: no user or password in the address; the key goes in its own field.' };
  if (typeof key !== 'string' || !/^\S{8,512}$/.test(key.trim())) return { ok: false, message: 'key: paste an API key (`cronbeat token create --scope read-only` makes one).' };
  return { ok: true, url: agentBase(parsed), key: key.trim() };
}

/** An agent's address as requests are built on it: origin and path, without a trailing slash, query or fragment. */
export function agentBase(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
