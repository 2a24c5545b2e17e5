import { StringDecoder } from 'node:string_decoder';
import type { PulseKind } from './pulseEffect';

/** How much of a pulse body (the run's output) is kept. */
export const PULSE_BODY_LIMIT = 100 * 1024;
/** How far back a replayed pulse's own send time is believed. */
export const MAX_REPLAY_AGE_MS = 24 * 3_600_000;

/**
 * When a pulse counts: the send time a replaying client states (X-Cronbeat-Sent-At, ISO
 * 8601) when it is at most MAX_REPLAY_AGE_MS in the past and not in the future; otherwise
 * (absent, unreadable, too old, ahead) the time it arrived.
 */
export function pulseTime(receivedAt: number, sentAtHeader: string | undefined): number {
  if (!sentAtHeader) return receivedAt;
  const sentAt = Date.parse(sentAtHeader);
  if (Number.isNaN(sentAt) || sentAt > receivedAt || receivedAt - sentAt > MAX_REPLAY_AGE_MS) return receivedAt;
  return sentAt;
}

/**
 * The kind and exit code a pulse path's last segment names: none is success, "start",
 * "fail", or an exit code 0-255 (0 success, others failure). Null for anything else.
 */
export function pulseAction(segment: string | undefined): { kind: PulseKind; exitCode: number | null } | null {
  if (segment === undefined) return { kind: 'success', exitCode: null };
  if (segment === 'start') return { kind: 'start', exitCode: null };
  if (segment === 'fail') return { kind: 'fail', exitCode: null };
  if (!/^\d{1,3}$/.test(segment) || Number(segment) > 255) return null;
  const exitCode = Number(segment);
  return { kind: exitCode === 0 ? 'success' : 'fail', exitCode };
}

/**
 * The kept text of a body of `totalBytes` whose first bytes are `head`: all of it when it
 * fits PULSE_BODY_LIMIT, else the first PULSE_BODY_LIMIT bytes (never half a character) and a
 * marker saying how much was cut.
 */
export function keptBody(head: Buffer, totalBytes: number): { body: string; truncated: boolean } {
  const text = new StringDecoder('utf8').write(head.subarray(0, PULSE_BODY_LIMIT));
  if (totalBytes <= PULSE_BODY_LIMIT) return { body: text, truncated: false };
  const cut = totalBytes - Buffer.byteLength(text);
  return { body: `${text}\n[… ${cut} more bytes cut; Cronbeat keeps the first ${PULSE_BODY_LIMIT} bytes of a pulse body]`, truncated: true };
}
