/*
 * Flapping (healthchecks' and Uptime Kuma's users ask for it): a monitor whose alerts keep
 * changing between failed and fine sends one "flapping" alert, with the count, and then nothing
 * until it has been steady for an hour, when one alert says so and what it is now. What counts
 * is an alerting change: a failure that alerts (after its N failures in a row) and its recovery.
 */

/** More alerting changes than this within FLAPPING_WINDOW_MS is flapping (docs/monitoring.md). */
export const FLAPPING_CHANGES = 4;
export const FLAPPING_WINDOW_MS = 60 * 60_000;
/** How long a flapping monitor must go without a change to be steady again. */
export const STEADY_AFTER_MS = 60 * 60_000;

/** What a monitor keeps about its recent changes. */
export interface FlapState {
  /** Its alerting changes within the last FLAPPING_WINDOW_MS (while flapping: since the last one's window), oldest first. */
  changes: number[];
  /** When its flapping alert was sent; null when it is not flapping. */
  since: number | null;
  /** While flapping: how many changes since it began (the ones the flapping alert counted included). */
  count: number;
}

export const NOT_FLAPPING: FlapState = { changes: [], since: null, count: 0 };

/** What an alerting change does: its own alert, the flapping alert in its place, or nothing (flapping already). */
export type ChangeOutcome = 'alert' | 'flapping' | 'silent';

/** The state after an alerting change at `at`, and what it raises. */
export function noteChange(state: FlapState, at: number, limit = FLAPPING_CHANGES): { state: FlapState; outcome: ChangeOutcome } {
  // Steady by then, though its steady-again alert was not sent (the agent was not running at that
  // moment, and this change came before the loop's first step): a change like any other.
  if (state.since !== null && at >= steadyAt(state)!) return noteChange(NOT_FLAPPING, at, limit);
  const changes = [...state.changes.filter((t) => t > at - FLAPPING_WINDOW_MS && t <= at), at];
  if (state.since !== null) return { state: { changes, since: state.since, count: state.count + 1 }, outcome: 'silent' };
  if (changes.length > limit) return { state: { changes, since: at, count: changes.length }, outcome: 'flapping' };
  return { state: { changes, since: null, count: 0 }, outcome: 'alert' };
}

/** When a flapping monitor is steady again unless it changes before: an hour after its last change; null when not flapping. */
export function steadyAt(state: FlapState): number | null {
  if (state.since === null) return null;
  const last = state.changes.length > 0 ? state.changes[state.changes.length - 1] : state.since;
  return last + STEADY_AFTER_MS;
}

/** The first change the flapping alert counts (within the window of the change that made it flap). */
export function firstChange(state: FlapState): number | null {
  return state.changes.length > 0 ? state.changes[0] : null;
}

/** A stored flap state (JSON), tolerant of anything else: not flapping. */
export function flapStateOf(json: string | null | undefined): FlapState {
  if (!json) return NOT_FLAPPING;
  try {
    const value = JSON.parse(json) as Partial<FlapState>;
    const changes = Array.isArray(value.changes) ? value.changes.filter((t): t is number => typeof t === 'number') : [];
    const since = typeof value.since === 'number' ? value.since : null;
    return { changes, since, count: typeof value.count === 'number' ? value.count : changes.length };
  } catch {
    return NOT_FLAPPING;
  }
}
