import { StringDecoder } from 'node:string_decoder';
import type { PulseKind } from './pulseEffect';
import { parseZonedTimestamp } from '../time/zonedTimestamp';

/** How much of a pulse body (the run's output) is kept. */
export const PULSE_BODY_LIMIT = 100 * 1024;
/** How far back a replayed pulse's own send time is believed. */
export const MAX_REPLAY_AGE_MS = 24 * 3_600_000;

/** How far the time a client states may be from what its age says, and still be believed: clocks that agree. */
export const CLOCKS_AGREE_MS = 60_000;

/**
 * When a pulse counts: the event time a replaying client states (X-Cronbeat-Sent-At, ISO 8601
 * with a zone, a date that exists, on the client's clock) when it is not in the future. A client
 * that also says how long ago its event was (X-Cronbeat-Age-Ms, measured on its own clock, so
 * right however wrong that clock is set) is believed by that age instead when the time it states
 * is more than CLOCKS_AGREE_MS off it: its clock is wrong. Either is believed at most
 * MAX_REPLAY_AGE_MS back: one further back counts as that far back, the oldest moment believed
 * (a spool kept longer than a day keeps its order: counted for its arrival, its oldest pulse
 * would make every newer one replayed after it older than the state, so a failure after it
 * would change nothing). Otherwise (absent, unreadable, ahead) the time it arrived.
 */
export function pulseTime(receivedAt: number, sentAtHeader: string | undefined, ageMs: number | null = null): number {
  const sentAt = sentAtHeader ? parseZonedTimestamp(sentAtHeader) : null;
  const oldest = receivedAt - MAX_REPLAY_AGE_MS;
  if (ageMs !== null) {
    const byAge = receivedAt - Math.min(ageMs, MAX_REPLAY_AGE_MS);
    if (sentAt === null || Math.abs(sentAt - byAge) > CLOCKS_AGREE_MS) return byAge;
  }
  if (sentAt === null || sentAt > receivedAt) return receivedAt;
  return Math.max(sentAt, oldest);
}

/** The longest run duration a client may state (X-Cronbeat-Duration-Ms): a year, like a monitor's duration. */
export const MAX_MEASURED_DURATION_MS = 366 * 24 * 3_600_000;

/**
 * How long the run an end pulse closes took: the duration the client measured when it sent
 * one (its own monotonic clock, right however late the pulse arrives), else from its start to
 * its own time, never negative (an end stamped before its start, as a clock set back makes,
 * took 0 ms). Nothing for a start, or for an end that closes no start and states no duration.
 */
export function runDurationMs(kind: PulseKind, startedAt: number | null, endAt: number, measuredMs: number | null): number | null {
  if (kind === 'start') return null;
  if (measuredMs !== null) return measuredMs;
  return startedAt === null ? null : Math.max(0, endAt - startedAt);
}

/** What a pulse says, as far as telling a retry from a different pulse goes. */
export interface PulseGist {
  kind: PulseKind;
  exitCode: number | null;
  rid: string | null;
}

/** Whether `again` (sent under the idempotency key of `first`) says the same as `first`: then it is a retry of it. */
export function isRetryOf(first: PulseGist, again: PulseGist): boolean {
  return first.kind === again.kind && first.exitCode === again.exitCode && first.rid === again.rid;
}

/** A pulse whose idempotency key the monitor already stored for a different pulse. */
export class IdempotencyKeyReusedError extends Error {
  constructor() {
    super('The Idempotency-Key was already used for a different pulse of this monitor.');
  }
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
 * marker saying how much was cut. `totalBytes` null: more than `head`, not counted (a compressed
 * body is inflated no further than it is kept).
 */
export function keptBody(head: Buffer, totalBytes: number | null): { body: string; truncated: boolean } {
  const text = new StringDecoder('utf8').write(head.subarray(0, PULSE_BODY_LIMIT));
  if (totalBytes !== null && totalBytes <= PULSE_BODY_LIMIT) return { body: text, truncated: false };
  const cut = totalBytes === null ? 'the rest' : `${totalBytes - Buffer.byteLength(text)} more bytes`;
  return { body: `${text}\n[… ${cut} cut; Cronbeat keeps the first ${PULSE_BODY_LIMIT} bytes of a pulse body]`, truncated: true };
}

/**
 * The body kept for a pulse whose body came under a Content-Encoding Cronbeat cannot undo (or
 * that did not undo): the pulse still counts, and its output says why it is missing rather than
 * showing the compressed bytes as text.
 */
export function unreadBody(coding: string, reason: 'unknown' | 'broken'): { body: string; truncated: boolean } {
  const why = reason === 'unknown' ? 'which Cronbeat does not read (it reads gzip, deflate and br)' : 'but did not decompress as such';
  return { body: `[The output was sent compressed (Content-Encoding: ${coding}) ${why}; it was not kept.]`, truncated: true };
}
