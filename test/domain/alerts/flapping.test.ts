import { describe, expect, it } from 'vitest';
import { flapStateOf, noteChange, NOT_FLAPPING, steadyAt, type FlapState } from '../../../agent/domain/alerts/flapping';
import { runsDueWords } from '../../../agent/domain/alerts/streakWords';

const MINUTE = 60_000;

function changes(times: number[], start: FlapState = NOT_FLAPPING) {
  let state = start;
  const outcomes: string[] = [];
  for (const t of times) {
    const noted = noteChange(state, t);
    outcomes.push(noted.outcome);
    state = noted.state;
  }
  return { state, outcomes };
}

describe('noteChange', () => {
  it('alerts four changes within an hour, folds the fifth into one flapping alert, then says nothing', () => {
    const { state, outcomes } = changes([0, 10, 20, 30, 40, 50, 55].map((m) => m * MINUTE));
    expect(outcomes).toEqual(['alert', 'alert', 'alert', 'alert', 'flapping', 'silent', 'silent']);
    expect(state.since).toBe(40 * MINUTE);
    expect(state.count).toBe(7);
    expect(steadyAt(state)).toBe(115 * MINUTE);
  });

  it('counts only the last hour: five changes over more than an hour do not flap', () => {
    expect(changes([0, 20, 40, 60, 80].map((m) => m * MINUTE)).outcomes).toEqual(['alert', 'alert', 'alert', 'alert', 'alert']);
    // Exactly an hour after the first, that first is out of the window.
    expect(changes([0, 15, 30, 45, 60].map((m) => m * MINUTE)).outcomes.at(-1)).toBe('alert');
  });

  it('takes a change an hour or more after the last as a fresh one: the monitor was steady before it', () => {
    const flapping = changes([0, 10, 20, 30, 40].map((m) => m * MINUTE)).state;
    expect(noteChange(flapping, 100 * MINUTE - 1).outcome).toBe('silent');
    expect(noteChange(flapping, 100 * MINUTE)).toEqual({ state: { changes: [100 * MINUTE], since: null, count: 0 }, outcome: 'alert' });
  });

  it('is not flapping, so never steady, below the limit', () => {
    expect(steadyAt(changes([0]).state)).toBeNull();
  });

  it('reads a stored state, and anything else as not flapping', () => {
    expect(flapStateOf(JSON.stringify({ changes: [1, 2], since: 2, count: 6 }))).toEqual({ changes: [1, 2], since: 2, count: 6 });
    expect(flapStateOf('nonsense')).toEqual(NOT_FLAPPING);
    expect(flapStateOf(null)).toEqual(NOT_FLAPPING);
  });
});

describe('runsDueWords', () => {
  it('names the day once, again when it changes, in the monitor zone', () => {
    expect(runsDueWords(['2026-11-27T13:00:00Z', '2026-11-27T13:10:00Z'], 'UTC')).toBe('Fri 27 Nov 13:00, 13:10 UTC');
    expect(runsDueWords(['2026-11-27T22:50:00Z', '2026-11-27T23:10:00Z'], 'Europe/Paris')).toBe('Fri 27 Nov 23:50, Sat 28 Nov 00:10 Europe/Paris');
  });

  it('shortens a long streak to its first two and last three', () => {
    const runs = Array.from({ length: 8 }, (_, i) => new Date(Date.parse('2026-11-27T13:00:00Z') + i * 10 * MINUTE).toISOString());
    expect(runsDueWords(runs, 'UTC')).toBe('Fri 27 Nov 13:00, 13:10, …, 13:50, 14:00, 14:10 UTC');
  });
});
