import { describe, expect, it } from 'vitest';
import { uuidV7 } from '../../agent/db/uuidV7';
import { UUID_V7 } from '../helpers/testAgent';

// The module keeps the last millisecond it used (keys never go back): other files in the same process move it too.
const msOf = (key: string) => parseInt(key.slice(0, 8) + key.slice(9, 13), 16);

describe('uuidV7', () => {
  it('makes version-7 UUIDs that carry their millisecond and ascend, within a millisecond too', () => {
    const at = Date.now();
    const keys = Array.from({ length: 10_000 }, (_, i) => uuidV7(at + Math.floor(i / 5_000)));
    for (const key of keys) expect(key).toMatch(UUID_V7);
    expect(new Set(keys).size).toBe(keys.length);
    // Sorted as text (as SQLite's index sorts them) they are in the order they were made.
    expect([...keys].sort()).toEqual(keys);
    expect(msOf(keys[0]!)).toBeGreaterThanOrEqual(at);
    // More than 4,096 in one millisecond borrow the next rather than repeat.
    expect(msOf(keys[4_999]!)).toBeGreaterThan(msOf(keys[0]!));
  });

  it('never goes back when the clock does', () => {
    const now = Date.now();
    const later = uuidV7(now);
    const earlier = uuidV7(now - 3_600_000);
    expect(earlier > later).toBe(true);
  });
});
