import { describe, expect, it } from 'vitest';
import { describeDuration } from '../../../agent/domain/time/durations';

describe('a duration for people', () => {
  it.each([
    [0, '0 ms'],
    [850, '850 ms'],
    [999.6, '1.0 s'],
    [4_250, '4.3 s'],
    [9_949, '9.9 s'],
    [9_950, '10 s'],
    [12_400, '12 s'],
    [59_499, '59 s'],
    [59_500, '1 min'],
    [185_000, '3 min 5 s'],
    [3_599_400, '59 min 59 s'],
    [3_599_600, '1 h'],
    [2 * 3_600_000 + 600_000, '2 h 10 min'],
    [3 * 3_600_000 + 5 * 60_000 + 20_000, '3 h 5 min'],
    [86_400_000, '1 day'],
    [(1440 + 30) * 60_000, '1 day 30 min'],
    [(2 * 1440 + 180) * 60_000, '2 days 3 h'],
    [(1440 + 150) * 60_000, '1 day 2 h 30 min'],
  ])('%d ms is "%s"', (ms, text) => {
    expect(describeDuration(ms)).toBe(text);
  });
});
