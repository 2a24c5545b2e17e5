import { describe, expect, it } from 'vitest';
import { toApiTimestamp, toNullableApiTimestamp } from '../../../agent/domain/time/apiTimestamps';

/** The format's definition: toISOString's milliseconds, three zeros, Z. */
const reference = (ms: number) => `${new Date(ms).toISOString().slice(0, -1)}000Z`;

describe('toApiTimestamp is toISOString with six fractional digits', () => {
  it('at the edges of days, months, leap years and the four-digit years', () => {
    const edges = [
      0, 1, 999, 1000, 59_999, 60_000, 3_599_999, 3_600_000, 86_399_999, 86_400_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2024, 2, 1), Date.UTC(2000, 1, 29, 12), Date.UTC(2100, 1, 28, 23, 59, 59, 999),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999), Date.UTC(2027, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      // Outside the years 0–9999 and fractions of a millisecond: toISOString's own text.
      Date.UTC(10000, 0, 1), -1, -86_400_001, Date.UTC(-5, 5, 5), 1.5, 1_700_000_000_000.75,
    ];
    for (const ms of edges) expect(toApiTimestamp(ms), String(ms)).toBe(reference(ms));
  });

  it('over random moments, alternating between days (the remembered day and value must not leak)', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      const ms = i % 3 === 0 ? Math.floor(random() * Date.UTC(9999, 11, 31)) : 1_790_000_000_000 + Math.floor(random() * 4 * 86_400_000);
      expect(toApiTimestamp(ms)).toBe(reference(ms));
      expect(toApiTimestamp(ms)).toBe(reference(ms));
    }
  });

  it('throws on a value that is no time, as toISOString does', () => {
    expect(() => toApiTimestamp(Number.NaN)).toThrow(RangeError);
    expect(() => toApiTimestamp(8.64e15 + 1)).toThrow(RangeError);
  });

  it('keeps null as null', () => {
    expect(toNullableApiTimestamp(null)).toBeNull();
    expect(toNullableApiTimestamp(0)).toBe('1970-01-01T00:00:00.000000Z');
  });
});
