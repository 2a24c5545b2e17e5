import { describe, expect, it } from 'vitest';
import { snoozeEnd } from '../../agent/cli/commands/monitor/pause';

// `monitor pause --until` refuses a date that does not exist instead of sending it on.
describe('monitor pause --until with an impossible date', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');
  it.each(['2030-02-30T10:00:00Z', '2030-02-30T10:00+01:00', '2030-02-30 10:00', '2030-01-10T24:00:00Z'])('refuses %s', (until) => {
    expect(() => snoozeEnd(until, undefined, now, 'Europe/Paris')).toThrow(/2030-0[12]-[13]0/);
  });

  it('takes a real one with its zone as given', () => {
    expect(snoozeEnd('2030-02-28T10:00:00Z', undefined, now, 'Europe/Paris')).toEqual({ until: '2030-02-28T10:00:00Z' });
  });

  it('says a Feb 29 without a zone does not exist in a common year, and takes it in a leap year', () => {
    expect(() => snoozeEnd('2027-02-29 10:00', undefined, now, 'Europe/Paris')).toThrow('--until 2027-02-29 10:00 is not a date and time that exists.');
    expect(snoozeEnd('2028-02-29 10:00', undefined, now, 'Europe/Paris')).toMatchObject({ until: '2028-02-29T09:00:00.000000Z' });
  });
});
