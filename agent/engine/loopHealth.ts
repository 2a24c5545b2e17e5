import type { LoopHealth } from '../domain/agentHealth/watchdog';

/**
 * What the monitor loop notes of itself as it works, read by the watchdog (agent/engine/watchdog.ts)
 * through the rule in agent/domain/agentHealth/watchdog.ts.
 */
export class LoopHealthRecord implements LoopHealth {
  lastRanAt: number | null = null;
  failingSince: number | null = null;

  /** A step, or a slice of one, ran at `now`. */
  ran(now: number): void {
    this.lastRanAt = now;
  }

  /** A step ended having written all it had to. */
  succeeded(now: number): void {
    this.lastRanAt = now;
    this.failingSince = null;
  }

  /** A step could not write; failing from the first such step until one succeeds. */
  failed(now: number): void {
    this.lastRanAt = now;
    this.failingSince ??= now;
  }
}
