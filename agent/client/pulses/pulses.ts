import { oneLine, requestWithRetry, type HttpOutcome } from '../connection/http';

/** What a pulse says: the run succeeded, started, failed, or ended with this exit code (0–255). */
export type PulseSignal = 'success' | 'start' | 'fail' | number;

/** A pulse sent by a job's line: its monitor is found or created by slug with a ping key. */
export interface LineTarget {
  /** The ping key (CRONBEAT_API_TOKEN). */
  key: string;
  /** What the line says: create=1&schedule=…&tz=…&grace=…&name=…[&server=…], URL-encoded. */
  query: string;
}

export interface Pulse {
  /** The monitor's token, or for a line's pulse (`line`) the monitor's slug: the last step of the pulse URL. */
  tokenOrSlug: string;
  line?: LineTarget;
  signal: PulseSignal;
  /** Pairs a start with its end. */
  rid?: string;
  /** The run's output, sent as the POST body. */
  body?: string;
  /** The Idempotency-Key: every attempt and replay of this pulse carries it, so the agent stores it once. */
  key: string;
  /** When its event happened (the call, the job's start or end), in ms since the epoch. */
  at: number;
  /** An end pulse's run duration, measured with a monotonic clock. */
  durationMs?: number;
}

/** The header that carries when a late pulse's event happened; the agent honours it up to 24 h back. */
export const SENT_AT_HEADER = 'X-Cronbeat-Sent-At';
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const DURATION_HEADER = 'X-Cronbeat-Duration-Ms';
/**
 * Beside the event time, how long ago it was, on this machine's clock: an agent that reads it
 * counts the pulse for the right moment even when this machine's clock is set hours wrong
 * (the time it states would be off by as much); older agents read the event time.
 */
export const AGE_HEADER = 'X-Cronbeat-Age-Ms';
/**
 * A pulse leaving later than this after its event states its event time. A prompt one does
 * not, so it counts for its arrival and the job machine's clock never matters for it.
 */
export const PROMPT_MS = 1_000;

/** The pulse endpoint for this pulse: /api/pulse/{token}[/start|/fail|/{code}][?rid=]. */
export function pulseUrl(baseUrl: string, pulse: Pulse): string {
  const suffix = pulse.signal === 'success' ? '' : `/${pulse.signal}`;
  const rid = pulse.rid ? `rid=${encodeURIComponent(pulse.rid)}` : '';
  if (pulse.line) {
    const query = [pulse.line.query, rid].filter(Boolean).join('&');
    return `${baseUrl}/api/pulse/key/${encodeURIComponent(pulse.line.key)}/${encodeURIComponent(pulse.tokenOrSlug)}${suffix}?${query}`;
  }
  return `${baseUrl}/api/pulse/${encodeURIComponent(pulse.tokenOrSlug)}${suffix}${rid ? `?${rid}` : ''}`;
}

/** A pulse's signal in words, for messages and `spool list`. */
export function describeSignal(signal: PulseSignal): string {
  return typeof signal === 'number' ? `exit ${signal}` : signal;
}

/** The headers of one attempt to send `pulse` at `now`; a `late` one (replayed from the spool) always states its event time. */
export function pulseHeaders(pulse: Pulse, now: number, late = false): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', [IDEMPOTENCY_KEY_HEADER]: pulse.key };
  if (late || now - pulse.at > PROMPT_MS) {
    headers[SENT_AT_HEADER] = new Date(pulse.at).toISOString();
    // Not when this clock was set back since the event: an age it cannot tell is not said.
    if (now >= pulse.at) headers[AGE_HEADER] = String(Math.round(now - pulse.at));
  }
  if (pulse.durationMs !== undefined) headers[DURATION_HEADER] = String(pulse.durationMs);
  return headers;
}

/**
 * Sends one pulse, retrying with backoff (`delays`, else RETRY_DELAYS_MS); every attempt carries
 * the same Idempotency-Key, and an attempt leaving late states the event's time. Never throws.
 */
export async function sendPulse(baseUrl: string, pulse: Pulse, late = false, delays?: number[]): Promise<HttpOutcome> {
  const url = pulseUrl(baseUrl, pulse);
  const body = pulse.body ?? '';
  const outcome = await requestWithRetry(() => ({ method: 'POST', url, headers: pulseHeaders(pulse, Date.now(), late), body, repeatable: true }), delays);
  // An agent never redirects a pulse: what answered is something else at that address (a proxy
  // sending http to https, a captive portal), so the pulse waits in the spool for the right
  // address instead of counting as refused, which would drop it.
  if (outcome.kind === 'rejected' && outcome.status >= 300 && outcome.status < 400) {
    const location = outcome.headers?.location;
    // A proxy keeps the path it redirects (/api/pulse/key/cb_…/slug): the line's ping key is a
    // secret, and this message goes to stderr, which cron mails.
    const key = pulse.line?.key;
    const shown = typeof location === 'string' && key ? location.split(key).join('***').split(encodeURIComponent(key)).join('***') : location;
    const to = typeof shown === 'string' ? `, a redirect to ${oneLine(shown)}` : '';
    return { kind: 'unreachable', message: `${new URL(baseUrl).origin} answered ${outcome.message}${to}: an agent never redirects a pulse; check --url or CRONBEAT_URL` };
  }
  // Nor does it answer a pulse with a web page: a captive portal or an app that answers every path
  // with 200 took it, and counted as delivered, the pulse would be lost without a word.
  const type = outcome.kind === 'ok' ? outcome.headers?.['content-type'] : undefined;
  if (outcome.kind === 'ok' && typeof type === 'string' && /^\s*text\/html\b/i.test(type)) {
    return { kind: 'unreachable', message: `${new URL(baseUrl).origin} answered ${outcome.status} with a web page (text/html), not as a Cronbeat agent does: check --url or CRONBEAT_URL` };
  }
  return outcome;
}
