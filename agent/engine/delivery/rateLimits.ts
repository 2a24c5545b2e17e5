/*
 * Channels whose receiver asked to be left alone (a Retry-After, or Telegram's retry_after): none of
 * their deliveries goes before the time it asked for. Kept in memory (each delivery's own retry
 * time is in the database, so a restart still waits for it), and only while the channel's settings
 * stay as they were: a channel pointed elsewhere, or given a new token, is not held by what its old
 * receiver asked.
 */
export class RateLimits {
  private readonly until = new Map<number, number>();
  private readonly askedAt = new Map<number, number>();
  private readonly settingsWhenAsked = new Map<number, string>();

  /** `channelId`, with `settings`, asked at `at` not to be sent to before `until` (the clock's times). */
  hold(channelId: number, settings: unknown, at: number, until: number): void {
    this.until.set(channelId, until);
    this.askedAt.set(channelId, at);
    this.settingsWhenAsked.set(channelId, JSON.stringify(settings));
  }

  /**
   * The channels held at `now`: holds that ended are forgotten, and so are those asked under other
   * settings than the channel's now (`settingsNow`, undefined for a channel gone; read for the few held).
   */
  held(now: number, settingsNow: (channelId: number) => unknown): number[] {
    for (const [id, asked] of this.askedAt) {
      // Asked at a moment later than now: the clock was set back since, and the pause lasts as long from now.
      if (asked > now) {
        this.until.set(id, now + this.until.get(id)! - asked);
        this.askedAt.set(id, now);
      }
    }
    for (const [id, until] of this.until) {
      if (until <= now || this.settingsWhenAsked.get(id) !== JSON.stringify(settingsNow(id) ?? null)) this.forget(id);
    }
    return [...this.until.keys()];
  }

  /** When the first hold ends; Infinity when none. */
  earliestEnd(): number {
    return Math.min(Infinity, ...this.until.values());
  }

  private forget(channelId: number): void {
    this.until.delete(channelId);
    this.askedAt.delete(channelId);
    this.settingsWhenAsked.delete(channelId);
  }
}
