import { describe, expect, it } from 'vitest';
import { stateAtClock } from '../../../agent/domain/monitors/clockBack';

const at = (iso: string) => Date.parse(iso);
const hourly = {
  schedule: '0 * * * *',
  timezone: 'UTC',
  durationMinutes: 5,
  runningSince: null,
  isAlerted: false,
  graceFrom: null,
  lastRunAt: at('2026-11-21T10:59:30Z'),
  stateSince: at('2026-11-21T10:59:30Z'),
};

describe('stateAtClock', () => {
  it('leaves a state the clock could have written as it is: an early pulse already awaits the run after the next', () => {
    // A pulse 30 s early answered 11:00, so 12:00 is awaited though 11:00 is the clock's next run.
    const state = { ...hourly, expectedRunAt: at('2026-11-21T12:00:00Z') };
    expect(stateAtClock(state, at('2026-11-21T10:59:40Z'))).toBe(state);
  });

  it('brings every recorded moment after the clock back to it and awaits the next run', () => {
    const ahead = at('2026-11-22T11:00:00Z');
    const state = { ...hourly, lastRunAt: ahead, stateSince: ahead, runningSince: ahead, graceFrom: ahead, expectedRunAt: at('2026-11-22T12:00:00Z') };
    const now = at('2026-11-21T11:00:30Z');
    expect(stateAtClock(state, now)).toEqual({ ...state, lastRunAt: now, stateSince: now, runningSince: now, graceFrom: now, expectedRunAt: at('2026-11-21T12:00:00Z') });
  });

  it('a period counts from the clock: every 90 minutes, the next one 90 minutes on', () => {
    const state = { ...hourly, schedule: '@every 90m', lastRunAt: at('2026-11-22T11:00:00Z'), stateSince: null, expectedRunAt: at('2026-11-22T12:30:00Z') };
    const now = at('2026-11-21T11:00:00Z');
    expect(stateAtClock(state, now)).toMatchObject({ lastRunAt: now, expectedRunAt: at('2026-11-21T12:30:00Z') });
  });
});
