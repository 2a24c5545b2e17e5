/*
 * Bursts: when many monitors fail at once, each channel gets one digest
 * instead of a message per monitor (chat services rate-limit and ban floods). The rule, per
 * channel, in the manner of Prometheus Alertmanager's group_wait and group_interval:
 *
 * - Up to BURST_THRESHOLD messages in BURST_WINDOW_MS go out one by one, at once.
 * - Beyond that, fresh alerts wait together and go out as one digest: GROUP_WAIT_MS after the
 *   first of them was due (so the rest of the burst can join), and at most one digest per
 *   DIGEST_INTERVAL_MS. No alert waits longer than DIGEST_INTERVAL_MS (well under a minute).
 * - A digest due while the same burst is still being failed (monitors overdue that the loop has not
 *   failed yet) waits for it, looking again every BURST_RECHECK_MS, so one burst makes one digest
 *   however long failing it takes (the loop fails a burst slowly while pulses come), but never past
 *   DIGEST_INTERVAL_MS after its oldest alert.
 *
 * Pure: `now` and the channel's recent sends are passed in.
 */

/** Messages a channel sends one by one within BURST_WINDOW_MS before alerts are folded into digests. */
export const BURST_THRESHOLD = 3;
export const BURST_WINDOW_MS = 60_000;
/** How long a burst's first alert waits for the others to join its digest. */
export const GROUP_WAIT_MS = 5_000;
/** The shortest time between two digests of a channel; the longest an alert waits for its digest. */
export const DIGEST_INTERVAL_MS = 20_000;
/** How often a digest waiting for its burst to be failed looks again. */
export const BURST_RECHECK_MS = 500;
/** At most this many alerts in one digest (the rest make the next): a webhook's body stays a few MB. */
export const DIGEST_MAX_ALERTS = 20_000;

/** What a channel has sent lately, and what waits for it. */
export interface ChannelBurst {
  /** Messages (single alerts or digests) whose first attempt was within BURST_WINDOW_MS before now. */
  recentSends: number;
  /** When its last digest was first attempted; null for none within the window. */
  lastDigestAt: number | null;
  /** Fresh alerts that were never attempted (a count past BURST_THRESHOLD + 1 decides nothing more). */
  waiting: number;
  /** When the oldest of them was made (a hold moves when they are due, not this). */
  oldestWaitingAt: number;
}

export type BurstDecision =
  /** Send the oldest waiting alert on its own. */
  | { action: 'send' }
  /** Hold every waiting alert until `until`, when they become one digest. */
  | { action: 'hold'; until: number }
  /** Fold every waiting alert into one digest now. */
  | { action: 'fold' }
  /** The burst is still being failed: look again at `until`, the waiting alerts left as they are. */
  | { action: 'wait'; until: number };

/**
 * What a channel does with its waiting alerts at `now` (see the rule above); `burstUnderWay`: more
 * failures of the same burst are still to be written.
 */
export function burstDecision(burst: ChannelBurst, now: number, burstUnderWay = false): BurstDecision {
  if (burst.recentSends + burst.waiting <= BURST_THRESHOLD) return { action: 'send' };
  const foldAt = Math.max(burst.oldestWaitingAt + GROUP_WAIT_MS, (burst.lastDigestAt ?? -Infinity) + DIGEST_INTERVAL_MS);
  if (now < foldAt) return { action: 'hold', until: foldAt };
  const latest = burst.oldestWaitingAt + DIGEST_INTERVAL_MS;
  if (burstUnderWay && now < latest) return { action: 'wait', until: Math.min(now + BURST_RECHECK_MS, latest) };
  return { action: 'fold' };
}
