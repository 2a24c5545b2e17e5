/*
 * The watchdog: the agent pings a dead-man's switch outside it (a healthchecks.io check, an
 * Uptime Kuma push monitor, any URL) while its monitor loop is healthy, so that its own death or
 * hang is noticed by someone else. Its pings stop when the loop stops doing its work, not only
 * when the process dies: a live process whose loop no longer fails overdue monitors is as silent
 * to the admin as a dead one.
 */

/** The first ping goes out this long after start: within the 10 s an outside check may expect. */
export const WATCHDOG_FIRST_PING_MS = 5_000;
/** Then one a minute, the finest period healthchecks.io and Uptime Kuma offer. */
export const WATCHDOG_EVERY_MS = 60_000;
/**
 * The loop runs at least every 30 s (and a burst step reports progress after each slice): a loop
 * that did nothing for three of those periods is stalled, not merely between two steps.
 */
export const LOOP_STALL_MS = 90_000;

/** What the loop says of itself: when it last did its work, and since when its writes fail (null: they work). */
export interface LoopHealth {
  /** When a step (or a slice of one) last ran; null before the first. */
  lastRanAt: number | null;
  /** When a step first failed (cannot write) with no step succeeding since; null while steps succeed. */
  failingSince: number | null;
}

/** Whether the loop is healthy at `now`, or the reason it is not (said in the log when the pings stop). */
export function loopVerdict(health: LoopHealth, now: number): { healthy: true } | { healthy: false; reason: string } {
  if (health.failingSince !== null) {
    return { healthy: false, reason: `the monitor loop cannot write (for ${seconds(now - health.failingSince)} s)` };
  }
  if (health.lastRanAt === null) return { healthy: false, reason: 'the monitor loop has not run yet' };
  const idle = now - health.lastRanAt;
  if (idle > LOOP_STALL_MS) return { healthy: false, reason: `the monitor loop has not run for ${seconds(idle)} s` };
  return { healthy: true };
}

const seconds = (ms: number) => Math.max(0, Math.round(ms / 1000));

/**
 * `input` as a watchdog URL, or the reason it is not one: http or https with a host. The URL is
 * the check's secret (anyone who has it can ping the check), so the reason never repeats it.
 */
export function checkWatchdogUrl(input: string): { url: string } | { error: string } {
  let parsed: URL;
  try {
    parsed = new URL(input.trim());
  } catch {
    return { error: 'must be an absolute http:// or https:// URL, such as https://hc-ping.com/<your check’s uuid>.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { error: 'must start with http:// or https://.' };
  if (!parsed.hostname) return { error: 'must name a host.' };
  if (parsed.href.length > 2000) return { error: 'must be at most 2000 characters.' };
  return { url: parsed.href };
}
