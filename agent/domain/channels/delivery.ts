/*
 * Rules of the delivery outbox: when a delivery is tried again, when it is given up,
 * when a channel's quiet hours hold it, and when a failing channel deserves a popup. Pure: `now`
 * is passed in.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** A delivery is retried for this long after it was written (quiet hours extend it). */
export const RETRY_FOR_MS = 24 * HOUR;
/** A channel failing at least this long raises one desktop popup. */
export const CHANNEL_FAILING_POPUP_AFTER_MS = HOUR;
/** Waits after the 1st, 2nd, … failed attempt; the last one repeats. */
export const BACKOFF_MS = [30 * SECOND, MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR];

/** The longest a receiver's Retry-After is obeyed: an absurd one waits as long as the backoff's longest step, never days. */
export const MAX_RETRY_AFTER_MS = HOUR;

/**
 * A receiver's Retry-After (whole or decimal seconds, or an HTTP date) as how long to wait from
 * `now`, at most MAX_RETRY_AFTER_MS (a date past is 0); null when it says nothing usable.
 */
export function retryAfterMs(value: string | null | undefined, now: number): number | null {
  const text = (value ?? '').trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(MAX_RETRY_AFTER_MS, Math.ceil(Number(text) * SECOND));
  // An HTTP date ends in GMT (RFC 9110); Date.parse alone would take "1 2" for a day of 2001.
  if (!/GMT$/i.test(text)) return null;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - now)) : null;
}

/**
 * When to try again after `attempts` failed attempts, the last at `now`, and not within `notBeforeMs`
 * of it (the receiver's Retry-After); null when the next try would come after `giveUpAt` (the
 * delivery is then failed for good).
 */
export function nextAttemptAt(attempts: number, now: number, giveUpAt: number, notBeforeMs = 0): number | null {
  const wait = Math.max(BACKOFF_MS[Math.min(Math.max(attempts, 1), BACKOFF_MS.length) - 1], notBeforeMs);
  const next = now + wait;
  return next > giveUpAt ? null : next;
}

/** A channel's quiet hours: deliveries wait from `start` to `end` ("HH:MM", wall clock of `timezone`). */
export interface QuietHours {
  start: string;
  end: string;
  timezone: string;
}

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

/**
 * Formats hours and minutes in `timezone`; in UTC when this machine does not know it (checked when
 * stored, it may be unknown to another machine's time zone data): throwing would stop every
 * channel's deliveries, not only this one's quiet hours.
 */
function clockFormat(timezone: string): Intl.DateTimeFormat {
  const options = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;
  try {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: timezone });
  } catch {
    return new Intl.DateTimeFormat('en-GB', { ...options, timeZone: 'UTC' });
  }
}

/** Minutes since local midnight (and the seconds into that minute) at `now` in `timezone`. */
function localClock(now: number, timezone: string): { minutes: number; msIntoMinute: number } {
  const parts = clockFormat(timezone).formatToParts(new Date(now));
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return { minutes: hour * 60 + minute, msIntoMinute: now % MINUTE };
}

/**
 * When the quiet hours that hold `now` end; null when `now` is outside them (or there are none,
 * or start equals end). Hours may span midnight (22:00–07:00). On a night the clock changes the
 * end is still at its wall time; an end that night skips (02:30 when 02:00 jumps to 03:00) comes
 * when the clock jumps past it.
 */
export function quietHoursEnd(quiet: QuietHours | null, now: number): number | null {
  if (!quiet) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return null;
  const inside = (minutes: number) => (start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end);
  const wall = (at: number) => localClock(at, quiet.timezone).minutes;
  const { minutes, msIntoMinute } = localClock(now, quiet.timezone);
  if (!inside(minutes)) return null;
  const untilEnd = (end - minutes + 1440) % 1440;
  const byMinutes = now - msIntoMinute + untilEnd * MINUTE;
  // Counted in minutes, the end is off by the clock's change when one comes first: moved by that.
  const drift = ((wall(byMinutes) - end + 1440 + 720) % 1440) - 720;
  if (drift === 0) return byMinutes;
  const corrected = byMinutes - drift * MINUTE;
  if (corrected > now && wall(corrected) === end) return corrected;
  // The end is in an hour the clock skips: the minute it jumps past it.
  let at = byMinutes;
  for (let step = 0; step < Math.abs(drift) && at - MINUTE > now && !inside(wall(at - MINUTE)); step++) at -= MINUTE;
  return at;
}

/** True when a channel failing since `failingSince` should now raise its one popup; false when not failing. */
export function channelFailurePopupDue(failingSince: number | null, now: number): boolean {
  return failingSince !== null && now - failingSince >= CHANNEL_FAILING_POPUP_AFTER_MS;
}

/**
 * The error of an attempt whose refusal is permanent (each kind says which are, in its folder
 * under agent/engine/delivery/kinds/): what the service said, and that it is not tried again.
 */
export function permanentFailure(said: string): string {
  return `${said.replace(/[.\s]+$/, '')}: this will not work until the channel's settings change; not retried.`;
}

/** Why a deleted channel's waiting deliveries failed (at once, when it is deleted). */
export const CHANNEL_DELETED = 'The channel was deleted before this could be sent.';

/** The error of a failed attempt whose channel was deleted while it was under way: it is not tried again. */
export function failedAfterChannelDeleted(error: string | null): string {
  return `${error ? `${error.replace(/\.$/, '')}. ` : ''}The channel was deleted meanwhile: not tried again.`;
}

/**
 * The error of a message its receiver refused for its size (HTTP 413) that cannot be sent smaller
 * (one alert, a report, a digest of one): the same body would be refused again, so it fails now.
 */
export function tooLargeFailure(error: string | null): string {
  return bounded(
    `${(error ?? 'The receiver answered HTTP 413').replace(/[.\s]+$/, '')}. Too large for the receiver, and this message cannot be made smaller: not retried. Raise the receiver's limit on a request's size (nginx's client_max_body_size).`,
  );
}

/** Text stored from a receiver (answer bodies, errors) is cut to this many characters. */
export const STORED_TEXT_MAX = 2000;

/** `text` cut to STORED_TEXT_MAX characters, marked when cut. */
export function bounded(text: string, max = STORED_TEXT_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
