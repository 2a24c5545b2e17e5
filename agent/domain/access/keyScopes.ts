/*
 * What each kind of API key may do. A key has one scope, fixed when it is made:
 * - full: everything, as every key could before scopes;
 * - read-only: reads (GET and HEAD): lists, details, /metrics, the live stream; no writes;
 * - ping: pulses and monitors made by a job's own line (/api/pulse/key/{key}/{slug}), and what a
 *   server's watcher reports (its heartbeat, its crontab's changes); nothing else;
 * - badge: status badges only (/api/badges/{key}/…), safe to put in a public README.
 */

export const KEY_SCOPES = ['full', 'read-only', 'ping', 'badge'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/**
 * What a Bearer-authenticated request needs: a read, a write, the key management itself, or a
 * server's report (a watcher's heartbeat or crontab change).
 */
export type Access = 'read' | 'write' | 'manage-keys' | 'report-server';

/** The access a request asks for by its method alone: GET and HEAD read, everything else writes. */
export function accessOfMethod(method: string): Access {
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/**
 * The two requests `cronbeat crontab watch` (and `timers watch`) make from a server. The key on a
 * server is a ping key, the one that is most easily stolen: these are all a watcher needs, and they
 * tell it nothing of the rest, so a watched server need not hold a key that reads and deletes everything.
 */
const SERVER_REPORTS = new Set(['/api/servers/heartbeat', '/api/servers/alert']);

/** The access a request asks for: a server's report by its path (a trailing slash names the same path), anything else by its method. */
export function accessOf(method: string, path: string): Access {
  return method === 'POST' && SERVER_REPORTS.has(path.replace(/(?<=.)\/$/, '')) ? 'report-server' : accessOfMethod(method);
}

/** Whether a key of `scope` may make a Bearer request that needs `access`. */
export function scopeAllows(scope: KeyScope, access: Access): boolean {
  if (scope === 'full') return true;
  if (scope === 'ping') return access === 'report-server';
  return scope === 'read-only' && access === 'read';
}

/** The sentence a 403 says for a key of `scope` refused `access`. */
export function scopeRefusal(scope: KeyScope, access: Access): string {
  if (scope === 'ping') return "A ping key may only send pulses (/api/pulse/…) and a server watcher's reports; this needs a read-only or full key.";
  if (scope === 'badge') return 'A badge key may only read badges (/api/badges/…); this needs a read-only or full key.';
  if (access === 'manage-keys') return 'Only a full key may list, create or revoke keys.';
  return 'A read-only key may only read (GET); this needs a full key.';
}

/**
 * Whether a key of `scope` is shown monitors' pulse tokens (a monitor's `token` and `pulse_url`,
 * a notification's `monitor_token`). A pulse token can fail a monitor or turn a failed one green,
 * which is a write: only a full key, which may write anyway, sees it.
 */
export function seesPulseTokens(scope: KeyScope): boolean {
  return scope === 'full';
}

export function isKeyScope(value: unknown): value is KeyScope {
  return typeof value === 'string' && (KEY_SCOPES as readonly string[]).includes(value);
}

/**
 * Whether a key of `scope` is shown the whole URLs channels send to (else their origin alone):
 * such a URL often is the receiver's credential, and with it anyone can send as Cronbeat.
 */
export function seesChannelUrls(scope: KeyScope): boolean {
  return scope === 'full';
}

/**
 * The company the agent itself belongs to: the one a fresh install has, whose dashboard
 * `cronbeat serve` prints a sign-in link for. Other companies (`cronbeat token create --company`)
 * share the agent but not its own settings.
 */
export const AGENT_COMPANY_ID = 1;

/**
 * Whether a key may change the agent's own settings (the public URL, the watchdog URL): they are
 * the agent's, not one company's, and the public URL is where every company's links and pulse
 * URLs point, so only a full key of the agent's own company may.
 */
export function changesAgentSettings(scope: KeyScope, companyId: number): boolean {
  return scope === 'full' && companyId === AGENT_COMPANY_ID;
}
