import { describe, expect, it } from 'vitest';
import { monitorFormErrors } from '../../renderer/src/components/MonitorForm';

const validateTimezone = (timezone: string) => monitorFormErrors({ name: 'Backup', timezone, schedule: '0 2 * * *', duration: '30', tags: '' }).timezone;

// The dashboard's zone field answers by the API's rule (agent/domain/time/timeZones.ts, tested in test/domain).
describe('the zone field check', () => {
  it.each(['Paris', 'paris', 'New York', 'san francisco', 'Mumbai', 'india', 'são paulo', 'europe/paris', 'Asia/Kolkata', 'Asia/Calcutta', 'utc'])(
    'takes %j',
    (typed) => {
      expect(validateTimezone(typed)).toBeUndefined();
    },
  );

  it('asks to pick among several, refuses an abbreviation with the zone it may mean, and says plainly when nothing matches', () => {
    expect(validateTimezone('Europe')).toBe('The timezone field must be a valid time zone: "Europe" is not a time zone: did you mean Europe/Kyiv, Europe/Lisbon or Asia/Nicosia?');
    expect(validateTimezone('EST')).toMatch(/"EST" is an abbreviation, not a time zone .*America\/New_York/);
    expect(validateTimezone('Mars/Olympus')).toBe('The timezone field must be a valid time zone: "Mars/Olympus" is not a time zone; give one such as Europe/Paris.');
  });
});
