import { requestWithRetry, type HttpOutcome } from './http';

/** What a pulse says: the run succeeded, started, failed, or ended with this exit code (0–255). */
export type PulseSignal = 'success' | 'start' | 'fail' | number;

export interface Pulse {
  token: string;
  signal: PulseSignal;
  /** Pairs a start with its end. */
  rid?: string;
  /** The run's output, sent as the POST body. */
  body?: string;
}

/** The header that carries a replayed pulse's original time; the agent honours it up to 24 h back. */
export const SENT_AT_HEADER = 'X-Cronbeat-Sent-At';

/** The pulse endpoint of issue 3 for this pulse: /api/pulse/{token}[/start|/fail|/{code}][?rid=]. */
export function pulseUrl(baseUrl: string, pulse: Pulse): string {
  const suffix = pulse.signal === 'success' ? '' : `/${pulse.signal}`;
  const query = pulse.rid ? `?rid=${encodeURIComponent(pulse.rid)}` : '';
  return `${baseUrl}/api/pulse/${encodeURIComponent(pulse.token)}${suffix}${query}`;
}

/** A pulse's signal in words, for messages and `spool list`. */
export function describeSignal(signal: PulseSignal): string {
  return typeof signal === 'number' ? `exit ${signal}` : signal;
}

/**
 * Sends one pulse, retrying with backoff. `sentAt` (ms) is given for a replayed pulse so the
 * agent credits the time it really happened. Never throws.
 */
export function sendPulse(baseUrl: string, pulse: Pulse, sentAt?: number): Promise<HttpOutcome> {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
  if (sentAt !== undefined) headers[SENT_AT_HEADER] = new Date(sentAt).toISOString();
  return requestWithRetry({ method: 'POST', url: pulseUrl(baseUrl, pulse), headers, body: pulse.body ?? '' });
}
