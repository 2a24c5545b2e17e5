import { describe, expect, it } from 'vitest';
import { uuidV7 } from '../../agent/db/uuidV7';
import { UUID_V7 } from '../helpers/testAgent';

describe('uuidV7', () => {
  it('makes version-7 UUIDs that carry their millisecond and ascend, within a millisecond too', () => {
    const at = Date.parse('2026-11-27T17:00:00Z');
    const keys = Array.from({ length: 10_000 }, (_, i) => uuidV7(at + Math.floor(i / 5_000)));
    for (const key of keys) expect(key).toMatch(UUID_V7);
    expect(new Set(keys).size).toBe(keys.length);
    // Sorted as text (as SQLite's index sorts them) they are in the order they were made.
    expect([...keys].sort()).toEqual(keys);
    expect(parseInt(keys[0].slice(0, 8) + keys[0].slice(9, 13), 16)).toBe(at);
    // More than 4,096 in one millisecond borrow the next rather than repeat.
    expect(parseInt(keys[4_999].slice(0, 8) + keys[4_999].slice(9, 13), 16)).toBe(at + 1);
  });

  it('never goes back when the clock does', () => {
    const later = uuidV7(Date.parse('2030-01-01T00:00:00Z'));
    const earlier = uuidV7(Date.parse('2029-01-01T00:00:00Z'));
    expect(earlier > later).toBe(true);
  });
});
