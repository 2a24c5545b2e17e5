/*
 * What one key's lines may make (/api/pulse/key/{key}/{slug}?create=1): a number of live monitors,
 * and a rate of new ones. A key in every crontab is easy to steal, and without these one stolen
 * key made 10,000 monitors in 20 s (and, once they failed, a digest of megabytes). Pure: the
 * caller keeps the buckets and passes `now`.
 */

/** Live monitors one key's lines may have unless the key says otherwise (`max_monitors`). */
export const DEFAULT_MAX_LINE_MONITORS = 100;
/** The most `max_monitors` may say. */
export const MAX_LINE_MONITORS_LIMIT = 10_000;
/** New monitors one key's lines may make in a burst, and again each minute (one every 2 s). */
export const LINE_CREATIONS_PER_MINUTE = 30;

const MINUTE = 60_000;

/** A key's creation budget: `left` new monitors as of `at`. */
export interface CreationBucket {
  left: number;
  at: number;
}

/** The bucket refilled up to `now`: LINE_CREATIONS_PER_MINUTE a minute, never more than that many. */
export function refilled(bucket: CreationBucket | undefined, now: number): CreationBucket {
  if (!bucket) return { left: LINE_CREATIONS_PER_MINUTE, at: now };
  const gained = (Math.max(0, now - bucket.at) * LINE_CREATIONS_PER_MINUTE) / MINUTE;
  return { left: Math.min(LINE_CREATIONS_PER_MINUTE, bucket.left + gained), at: now };
}

/** Milliseconds until the bucket holds one whole creation; 0 when it holds one now. */
export function waitForCreation(bucket: CreationBucket): number {
  return bucket.left >= 1 ? 0 : Math.ceil(((1 - bucket.left) * MINUTE) / LINE_CREATIONS_PER_MINUTE);
}

/** The bucket after one creation. */
export function spent(bucket: CreationBucket): CreationBucket {
  return { left: bucket.left - 1, at: bucket.at };
}

/** The live monitors a key's lines may have: its own `max_monitors`, else the default. */
export function maxLineMonitors(maxMonitors: number | null): number {
  return maxMonitors ?? DEFAULT_MAX_LINE_MONITORS;
}
