import { describe, expect, it } from 'vitest';
import { checkSchedule } from '../../../agent/domain/schedules';

describe('checkSchedule', () => {
  it('keeps five valid fields, with single spaces', () => {
    expect(checkSchedule(' 0  2 * * * ')).toEqual({ schedule: '0 2 * * *' });
    expect(checkSchedule('*/15 9-17 * jan-mar MON-FRI')).toEqual({ schedule: '*/15 9-17 * jan-mar MON-FRI' });
    expect(checkSchedule('0 0 * * 7')).toEqual({ schedule: '0 0 * * 7' });
    expect(checkSchedule('0 0 * * thu')).toEqual({ schedule: '0 0 * * thu' });
  });

  it('turns every cron macro into its five fields, in any letter case', () => {
    expect(checkSchedule('@hourly').schedule).toBe('0 * * * *');
    expect(checkSchedule('@daily').schedule).toBe('0 0 * * *');
    expect(checkSchedule('@midnight').schedule).toBe('0 0 * * *');
    expect(checkSchedule('@weekly').schedule).toBe('0 0 * * 0');
    expect(checkSchedule('@monthly').schedule).toBe('0 0 1 * *');
    expect(checkSchedule('@Yearly').schedule).toBe('0 0 1 1 *');
    expect(checkSchedule('@annually').schedule).toBe('0 0 1 1 *');
  });

  it("takes a timer's OnCalendar= lines pasted from its unit, storing the events alone", () => {
    expect(checkSchedule('OnCalendar=daily')).toEqual({ schedule: 'daily' });
    expect(checkSchedule(' OnCalendar = Mon..Fri 02:30 ')).toEqual({ schedule: 'Mon..Fri 02:30' });
    expect(checkSchedule('OnCalendar=Mon..Fri 09:00\noncalendar=Sat 12:00 UTC\n')).toEqual({ schedule: 'Mon..Fri 09:00\nSat 12:00 UTC' });
    // An empty OnCalendar= clears a unit's list: it adds no event here.
    expect(checkSchedule('OnCalendar=\nOnCalendar=weekly')).toEqual({ schedule: 'weekly' });
    // Read as a calendar event, so what follows is checked as one.
    expect(checkSchedule('OnCalendar=*-*-* 25:00').error).toMatch(/25/);
    expect(checkSchedule('OnCalendar=').error).toBeDefined();
    // Not every line a timer's: no guessing, the text is read as it is.
    expect(checkSchedule('OnCalendar=daily\n0 3 * * *').error).toBeDefined();
  });

  it('refuses H, which would move the due time at every parse', () => {
    expect(checkSchedule('H * * * *').error).toMatch(/^The minute field has "H": a five-field cron has no H/);
    expect(checkSchedule('0 H * * *').error).toMatch(/^The hour field has "H"/);
    expect(checkSchedule('H/15 * * * *').error).toMatch(/no H/);
  });

  it.each([
    ['0 25 * * *', 'The hour field is 25, but hours go from 0 to 23.'],
    ['60 * * * *', 'The minute field is 60, but minutes go from 0 to 59.'],
    ['0 0 0 * *', 'The day-of-month field is 0, but days of the month go from 1 to 31.'],
    ['0 0 * 13 *', 'The month field is 13, but months go from 1 to 12.'],
    ['0 0 * * 8', 'The day-of-week field is 8, but days of the week go from 0 to 7.'],
    ['5-60 * * * *', 'The minute field is 60, but minutes go from 0 to 59.'],
    ['*/0 * * * *', 'The minute field "*/0" steps by 0; a step is 1 or more.'],
    ['0 22-2 * * *', 'The hour range 22-2 runs backwards: write the smaller value first, or two ranges such as 22-23,0-2.'],
    ['0 0 * * fri-mon', 'The day-of-week range fri-mon runs backwards: write the smaller value first, or two ranges such as fri-7,0-mon.'],
    ['0 0 * foo *', 'The month field has "foo", which is not a number or a name such as feb.'],
    ['0 0 30 2 *', 'The day-of-month and month fields name a date that never comes (such as 30 February).'],
    ['1,,2 * * * *', 'The minute field has an empty item in its list.'],
    ['* * * *', 'A schedule has five fields (minute, hour, day-of-month, month, day-of-week); this one has 4.'],
    ['* * * * * *', 'A schedule has five fields (minute, hour, day-of-month, month, day-of-week); this one has 6.'],
    ['', 'Enter a schedule: a cron expression such as "0 2 * * *" or @daily, a calendar event such as "Mon..Fri 09:00", or a period such as "@every 90m".'],
    ['@reboot', '@reboot runs only when the machine starts, so there is no time to expect a run at.'],
    ['@nightly', '"@nightly" is not a cron macro: use @hourly, @daily, @weekly, @monthly or @yearly, or @every 90m for a period.'],
  ])('explains %j in words', (input, error) => {
    expect(checkSchedule(input)).toEqual({ error });
  });

  it('never passes on cron-parser\'s own wording', () => {
    for (const input of ['0 0 1W * *', '0 0 * * 5#9', '% * * * *']) {
      const { error } = checkSchedule(input);
      expect(error, input).toBeDefined();
      expect(error, input).not.toMatch(/Constraint|Invalid/);
    }
  });
});
