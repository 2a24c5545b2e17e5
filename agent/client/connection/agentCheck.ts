import { requestOnce } from './http';

/** What a key may do on an agent: watch (read-only) or also change things (full). */
export type AgentAccess = 'full' | 'read-only';

export type AgentCheck = { ok: true; access: AgentAccess } | { ok: false; message: string };

const bearer = (key: string) => ({ authorization: `Bearer ${key}`, accept: 'application/json' });

/** Whether a health answer is JSON whose own status is "ok" (read as data, not searched as text). */
function saysOk(text: string): boolean {
  try {
    return (JSON.parse(text) as { status?: unknown } | null)?.status === 'ok';
  } catch {
    return false;
  }
}

/**
 * Whether `baseUrl` is a Cronbeat agent this key may watch, and what else it may do: the
 * desktop app asks before it connects, so a typo, a wrong key or a ping key is said at once.
 */
export async function checkAgent(baseUrl: string, key: string): Promise<AgentCheck> {
  const health = await requestOnce({ method: 'GET', url: `${baseUrl}/api/health` });
  if (health.kind === 'unreachable') return { ok: false, message: `Cannot reach ${baseUrl}: ${health.message}.` };
  if (health.kind === 'rejected' || !saysOk(health.text)) {
    return { ok: false, message: `${baseUrl} does not answer as a Cronbeat agent (GET /api/health: ${health.status}).` };
  }
  const read = await requestOnce({ method: 'GET', url: `${baseUrl}/api/notifications?per_page=1`, headers: bearer(key) });
  if (read.kind === 'unreachable') return { ok: false, message: `Cannot reach ${baseUrl}: ${read.message}.` };
  if (read.kind === 'rejected') {
    if (read.status === 401) return { ok: false, message: 'The agent refused this key: check it, or make one with `cronbeat token create`.' };
    if (read.status === 403) return { ok: false, message: 'This key may not read the agent (a ping or badge key). Use a read-only or full key.' };
    if (read.status === 421) return { ok: false, message: `The agent does not answer to this name: start it with --allow-host ${new URL(baseUrl).hostname}.` };
    return { ok: false, message: `The agent refused: ${read.message}.` };
  }
  // Only a full key may list the keys: that tells the two apart without changing anything.
  const keys = await requestOnce({ method: 'GET', url: `${baseUrl}/api/keys`, headers: bearer(key) });
  return { ok: true, access: keys.kind === 'ok' ? 'full' : 'read-only' };
}
