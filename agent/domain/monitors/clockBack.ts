import { expectedRunAfter, MAX_EARLY_PULSE_MS, type MonitorTiming } from './dueTime';

/*
 * A clock set back: NTP correcting a clock that ran ahead (a wrong date at boot), or one set by
 * hand to the wrong day and put right. Every moment Cronbeat records comes from its own clock (a pulse's stated send
 * time is never believed when ahead of it), so a moment later than `now` was written while the
 * clock was ahead. Kept as it was, it would hold the monitor for as long as the clock was wrong:
 * a pulse that "came tomorrow" makes every real pulse until then older than the state (a /fail
 * changes nothing), and the run after it is awaited with its deadline tomorrow (a job that stops
 * is not missed). Each such moment is brought back to `now` instead, and a monitor waiting for a
 * run beyond the schedule's next one waits for the next one.
 */

/** The moments of a monitor's state that record something that happened (never ahead of the clock that wrote them). */
export interface RecordedMoments extends MonitorTiming {
  lastRunAt: number;
  stateSince: number | null;
}

const notAfter = (moment: number | null, now: number): number | null => (moment === null || moment <= now ? moment : now);

/** Whether `state` records a moment after `now`: the clock was set back since (cheap, for every pulse). */
export function recordsAheadOf(state: RecordedMoments, now: number): boolean {
  return (
    state.lastRunAt > now ||
    (state.stateSince ?? 0) > now ||
    (state.runningSince ?? 0) > now ||
    (state.graceFrom ?? 0) > now
  );
}

/**
 * `state` as a clock that reads `now` can have it: each recorded moment after `now` is `now`
 * (a run in progress started now, a catch-up grace runs from now, the state rests on now, so
 * the next pulse counts), and a run awaited beyond the schedule's next one (the one after `now`
 * and the minute a pulse may be early) is replanned to that next one. Unchanged (the same
 * object) when the clock never read later than `now`.
 */
export function stateAtClock<T extends RecordedMoments>(state: T, now: number): T {
  const next = state.expectedRunAt === null ? null : expectedRunAfter(state, now + MAX_EARLY_PULSE_MS);
  const expectedTooFar = next !== null && state.expectedRunAt !== null && state.expectedRunAt > next;
  if (!expectedTooFar && !recordsAheadOf(state, now)) return state;
  return {
    ...state,
    lastRunAt: Math.min(state.lastRunAt, now),
    stateSince: notAfter(state.stateSince, now),
    runningSince: notAfter(state.runningSince, now),
    graceFrom: notAfter(state.graceFrom, now),
    expectedRunAt: expectedTooFar ? expectedRunAfter(state, now) : state.expectedRunAt,
  };
}

/** What a pulse at `now` works from: `state` brought back to the clock when it records a moment after it (stateAtClock). */
export function pulseStateAtClock<T extends RecordedMoments>(state: T, now: number): T {
  return recordsAheadOf(state, now) ? stateAtClock(state, now) : state;
}
