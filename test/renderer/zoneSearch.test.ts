import { describe, expect, it } from 'vitest';
import { validateTimezone } from '../../renderer/src/lib/validate';

// The dashboard's zone field answers by the API's rule (agent/domain/timeZones.ts, tested in test/domain).
describe('the zone field check', () => {
  it.each(['Paris', 'paris', 'New York', 'san francisco', 'Mumbai', 'india', 'são paulo', 'europe/paris', 'Asia/Kolkata', 'Asia/Calcutta', 'utc'])(
    'takes %j',
    (typed) => {
      expect(validateTimezone(typed)).toBeUndefined();
    },
  );

  it('asks to pick among several, refuses an abbreviation with the zone it may mean, and says plainly when nothing matches', () => {
    expect(validateTimezone('Europe')).toBe('Several time zones match: pick one below.');
    expect(validateTimezone('EST')).toMatch(/"EST" is an abbreviation, not a time zone .*America\/New_York/);
    expect(validateTimezone('Mars/Olympus')).toBe('"Mars/Olympus" is not a time zone; give one such as Europe/Paris.');
  });
});
