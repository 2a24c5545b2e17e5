import { redirectTarget, requestOnce, type HttpOutcome } from './http';
import { shownUrl } from './baseUrl';

/** What a key may do on an agent: watch (read-only) or also change things (full). */
export type AgentAccess = 'full' | 'read-only';

export type AgentCheck = { ok: true; access: AgentAccess } | { ok: false; message: string };

const bearer = (key: string) => ({ authorization: `Bearer ${key}`, accept: 'application/json' });

/** A field of a JSON answer, read as data (never searched as text); undefined when it is no JSON object. */
function fieldOf(text: string, name: string): unknown {
  try {
    return (JSON.parse(text) as Record<string, unknown> | null)?.[name];
  } catch {
    return undefined;
  }
}

/** "Cannot reach …" once: the request's own message may already begin so. */
function cannotReach(baseUrl: string, message: string): string {
  return message.startsWith('cannot reach ') ? `C${message.slice(1)}.` : `Cannot reach ${shownUrl(baseUrl)}: ${message}.`;
}

/**
 * What a redirect says, or null for another answer. It is never followed: the key would go to
 * whatever host it names. Said with the origin it leads to, the address to give when it is the
 * agent (a proxy sending http:// to https://).
 */
function redirectWords(baseUrl: string, path: string, outcome: HttpOutcome): string | null {
  if (outcome.kind !== 'rejected' || outcome.status < 300 || outcome.status >= 400) return null;
  const location = outcome.headers?.location;
  const target = redirectTarget(new URL(`${baseUrl}${path}`), typeof location === 'string' ? location : undefined);
  let origin: string | null = null;
  try {
    origin = new URL(target).origin;
  } catch {
    // no usable Location: nothing to suggest
  }
  const hint = origin && origin !== 'null' ? `: if that is the agent, connect to ${origin}.` : '.';
  return `${shownUrl(baseUrl)} redirects to ${target} (${outcome.status})${hint}`;
}

/**
 * Whether `baseUrl` is a Cronbeat agent this key may watch, and what else it may do: the
 * desktop app asks before it connects, so a typo, a wrong key or a ping key is said at once.
 */
export async function checkAgent(baseUrl: string, key: string): Promise<AgentCheck> {
  const health = await requestOnce({ method: 'GET', url: `${baseUrl}/api/health` });
  if (health.kind === 'unreachable') return { ok: false, message: cannotReach(baseUrl, health.message) };
  const redirected = redirectWords(baseUrl, '/api/health', health);
  if (redirected) return { ok: false, message: redirected };
  if (health.kind === 'rejected' || fieldOf(health.text, 'status') !== 'ok') {
    return { ok: false, message: `${shownUrl(baseUrl)} does not answer as a Cronbeat agent (GET /api/health: ${health.status}).` };
  }
  // The key's own answer, which says its scope: any list would do to test the key, but the
  // notifications' envelope names every page (megabytes at a million notifications).
  const read = await requestOnce({ method: 'GET', url: `${baseUrl}/api/session`, headers: bearer(key) });
  if (read.kind === 'unreachable') return { ok: false, message: cannotReach(baseUrl, read.message) };
  if (read.kind === 'rejected') {
    const sent = redirectWords(baseUrl, '/api/session', read);
    if (sent) return { ok: false, message: sent };
    if (read.status === 401) return { ok: false, message: 'The agent refused this key: check it, or make one with `cronbeat token create`.' };
    if (read.status === 403) return { ok: false, message: 'This key may not read the agent (a ping or badge key). Use a read-only or full key.' };
    if (read.status === 421) return { ok: false, message: `The agent does not answer to this name: start it with --allow-host ${new URL(baseUrl).hostname}.` };
    return { ok: false, message: `The agent refused: ${read.message}.` };
  }
  const scope = fieldOf(read.text, 'scope');
  if (scope === 'full' || scope === 'read-only') return { ok: true, access: scope };
  // An agent older than the scope in its session answer: only a full key may list the keys, which
  // tells the two apart without changing anything.
  const keys = await requestOnce({ method: 'GET', url: `${baseUrl}/api/keys`, headers: bearer(key) });
  return { ok: true, access: keys.kind === 'ok' ? 'full' : 'read-only' };
}

