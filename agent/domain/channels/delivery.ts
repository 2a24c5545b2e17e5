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

/**
 * When to try again after `attempts` failed attempts, the last at `now`; null when the next try
 * would come after `giveUpAt` (the delivery is then failed for good).
 */
export function nextAttemptAt(attempts: number, now: number, giveUpAt: number): number | null {
  const wait = BACKOFF_MS[Math.min(Math.max(attempts, 1), BACKOFF_MS.length) - 1];
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

/** Minutes since local midnight (and the seconds into that minute) at `now` in `timezone`. */
function localClock(now: number, timezone: string): { minutes: number; msIntoMinute: number } {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .formatToParts(new Date(now));
  const hour = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const minute = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return { minutes: hour * 60 + minute, msIntoMinute: now % MINUTE };
}

/**
 * When the quiet hours that hold `now` end; null when `now` is outside them (or there are none,
 * or start equals end). Hours may span midnight (22:00–07:00). On the day a clock changes, the
 * end may come an hour early or late.
 */
export function quietHoursEnd(quiet: QuietHours | null, now: number): number | null {
  if (!quiet) return null;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return null;
  const { minutes, msIntoMinute } = localClock(now, quiet.timezone);
  const inside = start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
  if (!inside) return null;
  const untilEnd = (end - minutes + 1440) % 1440;
  return now - msIntoMinute + untilEnd * MINUTE;
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

/** Text stored from a receiver (answer bodies, errors) is cut to this many characters. */
export const STORED_TEXT_MAX = 2000;

/** `text` cut to STORED_TEXT_MAX characters, marked when cut. */
export function bounded(text: string, max = STORED_TEXT_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
