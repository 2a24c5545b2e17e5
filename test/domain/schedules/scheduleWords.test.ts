import { describe, expect, it } from 'vitest';
import { capitalised, scheduleWords } from '../../../agent/domain/schedules';

describe('scheduleWords', () => {
  it.each([
    ['*/5 * * * *', 'Europe/Paris', 'every 5 minutes'],
    ['* * * * *', 'UTC', 'every minute'],
    ['0 3 * * *', 'Europe/Paris', 'at 03:00 Europe/Paris'],
    ['@daily', 'UTC', 'at 00:00 UTC'],
    ['30 2 * * 1-5', 'Europe/Paris', 'at 02:30 Europe/Paris, Monday through Friday'],
    ['*/15 9-17 * * 1-5', 'America/New_York', 'every 15 minutes, between 09:00 and 17:59 America/New_York, Monday through Friday'],
    ['0 */2 * * *', 'Asia/Kolkata', 'on the hour, every 2 hours (Asia/Kolkata)'],
    // A day field starting with * beside a weekday: cron runs on the days that match both.
    ['0 0 */2 * 1', 'UTC', 'at 00:00 UTC, every 2 days in a month, and only if that day is also Monday'],
    ['*/5 * */2 * mon,wed', 'UTC', 'every 5 minutes, every 2 days in a month, and only if that day is also Monday or Wednesday (UTC)'],
    ['0 0 13 * 5', 'UTC', 'at 00:00 UTC, on day 13 of the month, and on Friday'],
    // A list that names a value twice (cron takes it) says each value once.
    ['0 0 * * 0,7', 'UTC', 'at 00:00 UTC, only on Sunday'],
    ['0-30,15 * * * *', 'UTC', 'minutes 0 through 30 past the hour'],
    ['*,5 2 * * *', 'UTC', 'every minute, between 02:00 and 02:59 UTC'],
  ])('says %j in %s as %j', (schedule, zone, words) => {
    expect(scheduleWords(schedule, zone)).toBe(words);
  });

  it('leaves the zone out when none is given, and says nothing for what cron cannot run', () => {
    expect(scheduleWords('0 3 * * *')).toBe('at 03:00');
    expect(scheduleWords('61 * * * *', 'UTC')).toBeNull();
    expect(scheduleWords('@reboot', 'UTC')).toBeNull();
  });

  it('capitalises for the start of a sentence', () => {
    expect(capitalised('every 5 minutes')).toBe('Every 5 minutes');
  });
});
