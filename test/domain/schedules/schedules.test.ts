import { describe, expect, it } from 'vitest';
import { checkSchedule, kindOf, nextRunAfter, nextRunAtOrAfter, nextRuns, previousRunBefore, runningTimerRunAfter, scheduleWords } from '../../../agent/domain/schedules';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().replace('.000Z', 'Z'));
const runs = (schedule: string, zone: string, from: string, count: number) => nextRuns(schedule, zone, at(from), count).map(iso);

describe('one schedule field, three kinds told apart by their text', () => {
  it.each([
    ['0 2 * * *', 'cron'],
    ['@daily', 'cron'],
    ['*/15 9-17 * jan-mar MON-FRI', 'cron'],
    ['*-*-* 02:30:00', 'calendar'],
    ['Mon..Fri 09:00', 'calendar'],
    ['*:0/15', 'calendar'],
    ['daily', 'calendar'],
    ['2026-03-08', 'calendar'],
    ['*-*~01', 'calendar'],
    ['@1790000000', 'calendar'],
    ['Mon 09:00\nFri 17:00', 'calendar'],
    ['@every 90m', 'period'],
    ['@ +1790000000', 'calendar'],
    // Half-written dates are calendar events (their refusal says so); a cron line short of a field is cron.
    ['*-09--08/14', 'calendar'],
    ['2026-03-', 'calendar'],
    ['1-5 * * *', 'cron'],
  ])('%j is %s', (text, kind) => {
    expect(kindOf(text)).toBe(kind);
  });
});

describe('checkSchedule for calendar events and periods', () => {
  it('keeps calendar events as written, one a line, blank lines and extra spaces dropped', () => {
    expect(checkSchedule('  Mon..Fri   09:00 ')).toEqual({ schedule: 'Mon..Fri 09:00' });
    expect(checkSchedule('Mon 09:00\n\n  Fri 17:00:30 Europe/Paris\n')).toEqual({ schedule: 'Mon 09:00\nFri 17:00:30 Europe/Paris' });
    // A @timestamp is read as strtoul() reads it (spaces and a sign before it), up to the year 2199.
    for (const ok of ['@7258118399', '@2147483648', '@ +1790000000', '*-*~01,25', '*-*~01,02,22', '*-*~01,22/21', '*:*:59.9999994', 'minutely', 'hourly', 'weekly', 'monthly', 'quarterly', 'semiannually', 'yearly', '*-*-* 00/3:30', 'Sat *-*-1..7 03:00', '*-02~03', '2026-03-08 02:30 UTC', '*:*:0/10', '*:*:7.5']) {
      expect(checkSchedule(ok).schedule, ok).toBe(ok);
    }
  });

  it.each([
    ['*-*-* 25:00', 'The hour is 25, but hours go from 0 to 23.'],
    ['*-*-* 02:60', 'The minute is 60, but minutes go from 0 to 59.'],
    ['*-13-01', 'The month is 13, but months go from 1 to 12.'],
    ['*-02~30', 'The day before the month\'s end is 30, but "~" counts at most 28 days back (~01 is the last day).'],
    // systemd lowers the limit of "~" by 3 days for each value of the list (its check runs down the
    // sorted list keeping the lowered limit): ~01,25 is taken, ~01,26 and ~01,02,23 are not.
    ['*-*~01,26', 'The day before the month\'s end is 26, but as the 2nd value of a "~" list it may be at most 25 (systemd allows 3 days fewer for each value before it).'],
    ['*-*~01,02,23', 'The day before the month\'s end is 23, but as the 3rd value of a "~" list it may be at most 22 (systemd allows 3 days fewer for each value before it).'],
    ['*-*~1,2,3,4,5,6,7,8,9', 'The day before the month\'s end is 8, but as the 8th value of a "~" list it may be at most 7 (systemd allows 3 days fewer for each value before it).'],
    ['*-*~01/7', 'The day 1/7 never repeats: its second run would be past the month\'s last day (~01).'],
    // A zone at the end that has no zone file is named, with the zones it may mean.
    ['12:00 EDT', 'The zone at the end: "EDT" is an abbreviation, not a time zone (abbreviations do not follow a place\'s daylight saving): did you mean America/New_York, America/Toronto or America/Nassau?'],
    ['12:00 europe/paris', 'The zone at the end is written as the zone database writes it, capitals included: Europe/Paris.'],
    ['12:00 Europe/Pari', 'The zone at the end: "Europe/Pari" is not a time zone: did you mean Europe/Paris?'],
    // Its seventh decimal rounds the sixth, so 59.9999995 is 60 seconds.
    ['*:*:59.9999995', 'The second is 60, but seconds go from 0 to 59.'],
    ['*:50/20', 'The minute 50/20 never repeats: its second run would be past 59.'],
    ['Mon, Fri 09:00', 'The weekdays are one part, without spaces: write Mon,Fri or Mon..Fri, then the date or time.'],
    ['Mon .. Fri 09:00', 'The weekdays are one part, without spaces: write Mon,Fri or Mon..Fri, then the date or time.'],
    ['tomorrow', '"tomorrow" is a moment, not a schedule: systemd refuses it in OnCalendar= too. Write when the job runs, such as "daily", "*-*-* 09:00" or "Mon..Fri 09:00".'],
    ['Fri..Mon 09:00', 'A range of weekdays runs from Monday to Sunday: write Mon..Fri, not Fri..Mon (or two parts, Fri..Sun,Mon).'],
    ['Mon 9', 'The time is written hour:minute or hour:minute:second, such as 02:30 or *:0/15.'],
    ['Mon 09:00\n*-*-* 25:00', 'Line 2 ("*-*-* 25:00"): The hour is 25, but hours go from 0 to 23.'],
    // systemd skips any number of spaces between the parts, but takes exactly one before the zone
    // (or after a shorthand), and never a tab: a unit with these lines fails to load.
    ['12:00  UTC', 'systemd takes one space here, not two nor a tab: write "12:00 UTC".'],
    ['daily  Europe/Paris', 'systemd takes one space here, not two nor a tab: write "daily Europe/Paris".'],
    ['Mon\t09:00', 'systemd takes one space here, not two nor a tab: write "Mon 09:00".'],
    ['Mon 09:00\n*-*-* 02:30\tEurope/Paris', 'Line 2 ("*-*-* 02:30\tEurope/Paris"): systemd takes one space here, not two nor a tab: write "*-*-* 02:30 Europe/Paris".'],
    ['@every', 'A period says how long between runs, such as "@every 90m", "@every 1h30m" or "@every 2d".'],
    ['@every 0s', 'A period of 0 never comes: write at least @every 1s.'],
    ['@every 90 minutes', '"@every 90 minutes" is not a period: write a number and a unit (s, m, h or d), such as "@every 90m", "@every 1h30m" or "@every 2d".'],
  ])('explains %j in words', (input, error) => {
    expect(checkSchedule(input)).toEqual({ error });
  });

  it('keeps a period in one spelling', () => {
    expect(checkSchedule('@EVERY  1h 30M')).toEqual({ schedule: '@every 1h30m' });
    // A unit given twice is added up, as Go's time.ParseDuration does ("1h1h" is two hours).
    expect(checkSchedule('@every 1h 1h 30m')).toEqual({ schedule: '@every 2h30m' });
    expect(scheduleWords('@every 1h1h', 'UTC')).toBe('every 2 hours, counted from the last run');
    // Go's time.ParseDuration takes decimals ("1.5h", ".5h", "1.h"); robfig/cron drops what is below a second.
    expect(checkSchedule('@every 1.5h')).toEqual({ schedule: '@every 1h30m' });
    expect(checkSchedule('@every .5h')).toEqual({ schedule: '@every 30m' });
    expect(checkSchedule('@every 1.h')).toEqual({ schedule: '@every 1h' });
    expect(checkSchedule('@every 1h0.5m')).toEqual({ schedule: '@every 1h30s' });
    expect(checkSchedule('@every 1.1h')).toEqual({ schedule: '@every 1h6m' });
    expect(checkSchedule('@every 2.75s')).toEqual({ schedule: '@every 2s' });
    expect(checkSchedule('@every 0.5s')).toEqual({ error: 'A period is at least a second: write at least @every 1s.' });
    expect(checkSchedule('@every 1..5h').error).toMatch(/is not a period/);
  });
});

describe('calendar events run as systemd runs them, not as cron does', () => {
  it('skips a time a spring-forward night jumps over (cron runs it at the jump)', () => {
    // New York, 2026-03-08: 02:00 EST becomes 03:00 EDT.
    expect(runs('*-*-* 02:30', 'America/New_York', '2026-03-07T12:00:00Z', 2)).toEqual(['2026-03-09T06:30:00Z', '2026-03-10T06:30:00Z']);
    expect(iso(nextRunAfter('30 2 * * *', 'America/New_York', at('2026-03-07T12:00:00Z')))).toBe('2026-03-08T07:00:00Z');
    // Hourly runs go on in the hours that exist.
    expect(runs('*:30', 'America/New_York', '2026-03-08T06:00:00Z', 2)).toEqual(['2026-03-08T06:30:00Z', '2026-03-08T07:30:00Z']);
  });

  it('runs a time of a fall-back night once, in the first copy; a search from inside the second finds the second', () => {
    // New York, 2026-11-01: 02:00 EDT becomes 01:00 EST; 01:00-01:59 happens twice.
    expect(runs('*-*-* 01:00/20:00', 'America/New_York', '2026-11-01T04:00:00Z', 4)).toEqual([
      '2026-11-01T05:00:00Z', '2026-11-01T05:20:00Z', '2026-11-01T05:40:00Z', '2026-11-02T06:00:00Z',
    ]);
    expect(runs('*-*-* 01:00/20:00', 'America/New_York', '2026-11-01T06:10:00Z', 2)).toEqual(['2026-11-01T06:20:00Z', '2026-11-01T06:40:00Z']);
  });

  it('follows half-hour (Lord Howe) and 45-minute-offset (Chatham) switches', () => {
    // Lord Howe, 2026-10-04: 02:00 +10:30 becomes 02:30 +11.
    expect(runs('*:0/20', 'Australia/Lord_Howe', '2026-10-03T15:00:00Z', 4)).toEqual([
      '2026-10-03T15:10:00Z', '2026-10-03T15:40:00Z', '2026-10-03T16:00:00Z', '2026-10-03T16:20:00Z',
    ]);
    // Chatham, 2026-09-27: 02:45 +12:45 becomes 03:45 +13:45.
    expect(runs('*-*-* 03:00', 'Pacific/Chatham', '2026-09-25T00:00:00Z', 2)).toEqual(['2026-09-25T14:15:00Z', '2026-09-27T13:15:00Z']);
    expect(runs('*-*-* 03:00', 'Pacific/Chatham', '2026-09-26T12:00:00Z', 1)).toEqual(['2026-09-27T13:15:00Z']);
  });

  it('gives up where systemd gives up (its 1000 steps), at the same run', () => {
    // Cairo, 2027-04-30: the clocks jump from 00:00 to 01:00; systemd-analyze finds 22:45 on the
    // 29th, then loops ("Infinite loop in calendar calculation") and elapses no more.
    const started = Date.now();
    expect(runs('Wed,Wed..Fri 10,02/4:45', 'Africa/Cairo', '2027-04-29T19:00:00Z', 3)).toEqual(['2027-04-29T20:45:00Z']);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('carries seconds that a repetition pushes past 59 into the next minute, as mktime() does', () => {
    // After :56, 0/7 gives :63, which mktime() makes the next minute's :03; systemd then starts
    // that minute at :00, or, when the hour rolled over too, at :03 (and so skips :00).
    expect(runs('*:*:00/7', 'UTC', '2026-11-12T04:58:50Z', 3)).toEqual(['2026-11-12T04:58:56Z', '2026-11-12T04:59:00Z', '2026-11-12T04:59:07Z']);
    expect(runs('*:*:00/7', 'UTC', '2026-11-12T04:59:30Z', 6)).toEqual([
      '2026-11-12T04:59:35Z', '2026-11-12T04:59:42Z', '2026-11-12T04:59:49Z', '2026-11-12T04:59:56Z', '2026-11-12T05:00:07Z', '2026-11-12T05:00:14Z',
    ]);
    expect(runs('*:*:10/25', 'Europe/Paris', '2026-11-12T04:59:36Z', 2)).toEqual(['2026-11-12T05:00:10Z', '2026-11-12T05:00:35Z']);
  });

  it('reads an abbreviation that has a zone file as that file, as systemd does on a machine of another zone', () => {
    // On a machine whose own zone uses it (CET on a Berlin one) systemd reads it as that half of the
    // year's time and elapses no more after the next switch; the file agrees with it until then.
    expect(runs('12:00 EST', 'Europe/Paris', '2026-07-01T00:00:00Z', 2)).toEqual(['2026-07-01T17:00:00Z', '2026-07-02T17:00:00Z']);
    expect(runs('Mon..Fri 12:00 CET', 'Europe/Berlin', '2026-01-09T12:00:00Z', 2)).toEqual(['2026-01-12T11:00:00Z', '2026-01-13T11:00:00Z']);
    expect(scheduleWords('12:00 EST', 'Europe/Paris')).toBe('at 12:00 EST');
  });

  it('expects a run whenever any of its lines elapses', () => {
    expect(runs('Mon 09:00\nWed 12:00 UTC', 'Europe/Paris', '2026-03-01T00:00:00Z', 3)).toEqual([
      '2026-03-02T08:00:00Z', '2026-03-04T12:00:00Z', '2026-03-09T08:00:00Z',
    ]);
  });

  it('finds the last run before a moment, the one the next run after it follows', () => {
    const before = previousRunBefore('Mon..Fri 09:00', 'Europe/Paris', at('2026-03-09T07:00:00Z'));
    expect(iso(before)).toBe('2026-03-06T08:00:00Z');
    expect(iso(nextRunAfter('Mon..Fri 09:00', 'Europe/Paris', before!))).toBe('2026-03-09T08:00:00Z');
  });

  it('on a fall-back night, the last run is the copy of the repeated time the timer elapsed at, never the other', () => {
    // 02:30 happens twice in Paris on 2026-10-25 (00:30 and 01:30 UTC); a timer elapses at the first only.
    expect(runs('*-*-* 02:30', 'Europe/Paris', '2026-10-24T20:00:00Z', 2)).toEqual(['2026-10-25T00:30:00Z', '2026-10-26T01:30:00Z']);
    for (const moment of ['2026-10-25T01:30:01Z', '2026-10-25T01:45:00Z', '2026-10-25T05:00:00Z']) {
      expect(iso(previousRunBefore('*-*-* 02:30', 'Europe/Paris', at(moment))), moment).toBe('2026-10-25T00:30:00Z');
    }
    expect(iso(previousRunBefore('*-*-* 02:30', 'Europe/Paris', at('2026-10-26T02:00:00Z')))).toBe('2026-10-26T01:30:00Z');
    // Every 20 minutes: the wall clock never goes back, so the repeated hour is not run again.
    expect(iso(previousRunBefore('*:0/20', 'Europe/Paris', at('2026-10-25T01:45:00Z')))).toBe('2026-10-25T00:40:00Z');
    expect(iso(previousRunBefore('*:0/20', 'Australia/Lord_Howe', at('2027-04-03T15:20:00Z')))).toBe('2027-04-03T14:40:00Z');
    // A second line elapsing inside the repeated hour (01:10 UTC) starts the next search there, as systemd's does: 01:30 UTC is a run then.
    expect(iso(previousRunBefore('*-*-* 02:30\n*-*-* 01:10 UTC', 'Europe/Paris', at('2026-10-25T01:45:00Z')))).toBe('2026-10-25T01:30:00Z');
  });

  it('a running timer\'s next run from inside the repeated hour is its next after its last, where a search begun there meets a second copy', () => {
    // systemd-analyze started at 02:10 CET (01:10 UTC) says 02:15 CET; a timer that elapsed at 02:45 CEST goes on at 03:00 CET.
    expect(iso(nextRunAfter('*:0/15', 'Europe/Paris', at('2026-10-25T01:10:00Z')))).toBe('2026-10-25T01:15:00Z');
    expect(iso(runningTimerRunAfter('*:0/15', 'Europe/Paris', at('2026-10-25T01:10:00Z')))).toBe('2026-10-25T02:00:00Z');
    // Elsewhere, and for cron (which runs both copies of an hourly schedule), the same as nextRunAfter.
    expect(iso(runningTimerRunAfter('*:0/15', 'Europe/Paris', at('2026-10-25T00:10:00Z')))).toBe('2026-10-25T00:15:00Z');
    expect(iso(runningTimerRunAfter('*/15 * * * *', 'Europe/Paris', at('2026-10-25T01:10:00Z')))).toBe('2026-10-25T01:15:00Z');
  });

  it('finds the last run of an event that runs thousands of times a day quickly', () => {
    // Each second of 1 January, each millisecond of a weekday or of a minute: walked one run at a time these
    // took seconds (hours for every millisecond of 1 January), the agent's loop stopped meanwhile.
    const started = Date.now();
    expect(iso(previousRunBefore('*-01-01 *:*:*', 'UTC', at('2026-07-01T00:00:00Z')))).toBe('2026-01-01T23:59:59Z');
    expect(iso(previousRunBefore('Mon..Fri *-*-* *:*:0/0.000001', 'UTC', at('2026-07-01T12:00:00Z')))).toBe('2026-07-01T11:59:59.999Z');
    expect(iso(previousRunBefore('2026-01-01 00:00:0/0.001', 'Europe/Paris', at('2026-03-01T12:00:00Z')))).toBe('2025-12-31T23:00:59.999Z');
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('gives nothing, quickly, for an event that never comes or comes only years apart', () => {
    const started = Date.now();
    expect(nextRunAfter('2099-02-29', 'UTC', at('2026-01-01T00:00:00Z'))).toBeNull();
    expect(nextRunAfter('*-02-30', 'Europe/Paris', at('2026-01-01T00:00:00Z'))).toBeNull();
    expect(previousRunBefore('*-02-30', 'Europe/Paris', at('2026-01-01T00:00:00Z'))).toBeNull();
    expect(nextRunAfter('2020-01-01', 'UTC', at('2026-01-01T00:00:00Z'))).toBeNull();
    expect(iso(nextRunAfter('*-02-29 12:00', 'UTC', at('2026-01-01T00:00:00Z')))).toBe('2028-02-29T12:00:00Z');
    expect(iso(previousRunBefore('*-02-29 12:00', 'UTC', at('2026-01-01T00:00:00Z')))).toBe('2024-02-29T12:00:00Z');
    expect(Date.now() - started).toBeLessThan(3_000);
    // Asked again (every pulse asks), a search that found nothing costs nothing.
    const again = Date.now();
    for (let i = 0; i < 100; i++) expect(nextRunAfter('*-02-30', 'Europe/Paris', at('2026-01-01T00:00:00Z') + i * 60_000)).toBeNull();
    expect(Date.now() - again).toBeLessThan(200);
    // So does the last run before each pulse (every pulse asks that too): the first search finds
    // none in the whole look-back, and each later one knows it at once (was ~50 ms a pulse).
    const pulses = Date.now();
    for (let i = 0; i < 100; i++) expect(previousRunBefore('*-04-31 12:00', 'Europe/Berlin', at('2026-01-01T00:00:00Z') + i * 60_000)).toBeNull();
    expect(Date.now() - pulses).toBeLessThan(500);
  });
});

describe('periods', () => {
  it('expect a run one period after the last (any moment may be a run)', () => {
    expect(nextRunAfter('@every 90m', 'UTC', at('2026-03-01T10:00:00Z'))).toBe(at('2026-03-01T11:30:00Z'));
    expect(nextRunAfter('@every 1d2h', 'Europe/Paris', at('2026-03-01T10:00:00Z'))).toBe(at('2026-03-02T12:00:00Z'));
    expect(previousRunBefore('@every 90m', 'UTC', at('2026-03-01T10:00:00Z'))).toBe(at('2026-03-01T10:00:00Z') - 1);
  });
});

describe('words', () => {
  it.each([
    ['Mon..Fri 09:00', 'Europe/Paris', 'at 09:00 Europe/Paris, Monday through Friday'],
    ['*:0/15', 'UTC', 'every 15 minutes (UTC)'],
    ['*-*~01 23:00', 'Europe/Paris', 'at 23:00 Europe/Paris, on the last day of the month'],
    ['Sat 03:00 UTC', 'Europe/Paris', 'at 03:00 UTC, on Saturday'],
    ['Sat *-*-1..7 03:00', 'Europe/Paris', 'at 03:00 Europe/Paris, on Saturday, on days 1 to 7 of the month'],
    ['quarterly', 'UTC', 'at 00:00 UTC, on the 1st in January, April, July and October'],
    ['Mon 09:00\nFri 17:30', 'Europe/Paris', 'at 09:00 Europe/Paris, on Monday; at 17:30 Europe/Paris, on Friday'],
    ['@every 90m', 'UTC', 'every 90 minutes, counted from the last run'],
    ['@every 1h30m', 'UTC', 'every 1 hour 30 minutes, counted from the last run'],
    ['0 3 * * *', 'Europe/Paris', 'at 03:00 Europe/Paris'],
    // "~" with a repetition counts towards the month's end: ~07/2 is ~07, ~05, ~03 and ~01.
    ['*-*~07/2', 'UTC', 'at 00:00 UTC, on the last day, the 3rd day from the end, the 5th day from the end and the 7th day from the end of the month'],
    ['*-*~28/7', 'UTC', 'at 00:00 UTC, on the 7th day from the end, the 14th day from the end, the 21st day from the end and the 28th day from the end of the month'],
    ['*-*~02..09/3', 'UTC', 'at 00:00 UTC, on the 2nd day from the end, the 5th day from the end and the 8th day from the end of the month'],
    // What reads badly in words is systemd's own normalised form, as systemd-analyze prints it.
    ['12:*:*', 'UTC', 'at 12:*:* UTC'],
    ['*:*:0.5', 'UTC', 'at *:*:00.500000 UTC'],
    ['*-*-1/3 12:*:1.5..3.5/0.5,30', 'UTC', 'at 12:*:01.500000..03.500000/0.500000,30 UTC, on dates *-*-01/3'],
  ])('says %j in %s as %j', (schedule, zone, words) => {
    expect(scheduleWords(schedule, zone)).toBe(words);
  });
});

describe('remembered answers', () => {
  it('answer as a fresh search would, asked in any order around switches and far from them', () => {
    // A seeded walk: every answer from nextRunAfter / previousRunBefore (remembered when far from a
    // switch) must equal a fresh systemd-style search from the same moment.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const cases = [
      ['Sun *-*-* 02:30', 'America/New_York'],
      ['*-*-* 01:30', 'America/New_York'],
      ['*:0/20', 'Australia/Lord_Howe'],
      ['Mon..Fri 00:15', 'America/Santiago'],
      ['*-*~01 02:45', 'Pacific/Chatham'],
    ] as const;
    const switches = [at('2026-03-08T07:00:00Z'), at('2026-11-01T06:00:00Z'), at('2026-10-03T15:30:00Z'), at('2026-09-06T04:00:00Z'), at('2026-09-26T14:00:00Z')];
    for (let i = 0; i < 400; i++) {
      const [schedule, zone] = cases[i % cases.length]!;
      const near = switches[i % switches.length]! + Math.floor((random() * 2 - 1) * (random() < 0.5 ? 8 : 240) * 3_600_000);
      const moment = Math.floor(near / 60_000) * 60_000 + (random() < 0.3 ? 0 : Math.floor(random() * 60) * 1000);
      expect(nextRunAfter(schedule, zone, moment), `${schedule} ${zone} after ${iso(moment)}`).toBe(nextRuns(schedule, zone, moment, 1)[0] ?? null);
      const before = previousRunBefore(schedule, zone, moment);
      if (before !== null) {
        expect(before).toBeLessThan(moment);
        expect(nextRuns(schedule, zone, before, 1)[0]!, `${schedule} ${zone} before ${iso(moment)}`).toBeGreaterThanOrEqual(moment);
      }
    }
  });
});

describe('in an alert', () => {
  it('says a calendar schedule of two lines on one line, in words', async () => {
    const { scheduleLine } = await import('../../../agent/domain/alerts/words');
    const monitor = { id: 1, name: 'backup', slug: null, tags: [], schedule: 'Mon..Fri 02:30\nSat 04:00 UTC', timezone: 'Europe/Paris', grace_minutes: 30 };
    const alert = { event: 'failed', at: '2026-03-02T02:00:00Z', reason: { kind: 'missed' }, monitor, server: null, run: null, expected_at: null } as unknown as Parameters<typeof scheduleLine>[0];
    expect(scheduleLine(alert)).toBe('Schedule "Mon..Fri 02:30; Sat 04:00 UTC" (at 02:30 Europe/Paris, Monday through Friday; at 04:00 UTC, on Saturday), grace 30 min');
  });
});

describe('the default grace (crontab discover, a line without --grace)', () => {
  it('fits every kind: the shortest gap between runs, at most an hour', async () => {
    const { defaultGraceMinutes } = await import('../../../agent/domain/monitors/dueTime');
    const from = at('2026-03-01T00:00:00Z');
    expect(defaultGraceMinutes('*:0/5', from)).toBe(5);
    expect(defaultGraceMinutes('Mon..Fri 09:00', from)).toBe(60);
    expect(defaultGraceMinutes('@every 20m', from)).toBe(20);
    expect(defaultGraceMinutes('@every 1d', from)).toBe(60);
    expect(defaultGraceMinutes('*/10 * * * *', from)).toBe(10);
    expect(defaultGraceMinutes('2099-02-29', from)).toBe(60);
  });
});

describe('the first run at or after a moment (the end of maintenance)', () => {
  const t = (iso: string) => Date.parse(iso);
  it('is that moment when a run falls exactly then, for cron and calendar events', () => {
    expect(nextRunAtOrAfter('0 * * * *', 'UTC', t('2026-11-27T15:00:00Z'))).toBe(t('2026-11-27T15:00:00Z'));
    expect(nextRunAtOrAfter('*-*-* *:00', 'UTC', t('2026-11-27T15:00:00Z'))).toBe(t('2026-11-27T15:00:00Z'));
    expect(nextRunAtOrAfter('0 * * * *', 'UTC', t('2026-11-27T15:00:00.001Z'))).toBe(t('2026-11-27T16:00:00Z'));
  });
  it('is one whole period after it for a period', () => {
    expect(nextRunAtOrAfter('@every 1h', 'UTC', t('2026-11-27T15:00:00Z'))).toBe(t('2026-11-27T16:00:00Z'));
  });
});

describe('zone files systemd reads beside the zone names', () => {
  // Answers of systemd-analyze calendar (TZ=Europe/Berlin, its clock at 2026-06-01T00:00Z), where
  // /usr/share/zoneinfo has posix/ copies, right/ zones that count leap seconds (27 since 2017),
  // posixrules (New York's rules) and Factory (UTC, named "-00").
  it.each([
    ['12:00 posix/Europe/Paris', '2026-06-01T10:00:00.000Z'],
    ['12:00 right/UTC', '2026-06-01T12:00:27.000Z'],
    ['12:00 right/Europe/Paris', '2026-06-01T10:00:27.000Z'],
    ['12:00 posixrules', '2026-06-01T16:00:00.000Z'],
    ['12:00 Factory', '2026-06-01T12:00:00.000Z'],
  ])('%j runs as systemd runs it', (schedule, first) => {
    expect(checkSchedule(schedule)).toEqual({ schedule });
    expect(new Date(nextRuns(schedule, 'Europe/Berlin', Date.UTC(2026, 5, 1), 1)[0]!).toISOString()).toBe(first);
  });

  it('refuses a zone file name in the wrong letter case, old names and abbreviations included, naming the right one', () => {
    // systemd opens /usr/share/zoneinfo/NAME, so "est" and "us/eastern" are no files (EST and US/Eastern are).
    expect(checkSchedule('12:00 EST')).toEqual({ schedule: '12:00 EST' });
    expect(checkSchedule('12:00 US/Eastern')).toEqual({ schedule: '12:00 US/Eastern' });
    expect(checkSchedule('12:00 Etc/GMT+5')).toEqual({ schedule: '12:00 Etc/GMT+5' });
    expect(checkSchedule('12:00 us/eastern').error).toBe('The zone at the end is written as the zone database writes it, capitals included: America/New_York.');
    expect(checkSchedule('12:00 est').error).toMatch(/^The zone at the end: "est" is an abbreviation/);
    for (const wrong of ['12:00 zulu', '12:00 etc/utc', '12:00 gmt', '12:00 cet', '12:00 asia/calcutta', '12:00 Us/Eastern']) expect(checkSchedule(wrong).error, wrong).toMatch(/^The zone at the end/);
    // A monitor stored when Cronbeat took them (0.5) keeps its runs: refused as input, not dropped when read.
    expect(nextRuns('12:00 us/eastern', 'UTC', Date.UTC(2026, 5, 1), 1)).toEqual([Date.UTC(2026, 5, 1, 16)]);
    expect(scheduleWords('12:00 us/eastern', 'UTC')).not.toBeNull();
  });

  it('keeps a right/ zone on the offset its file ends with, as glibc does', () => {
    // Debian 12's right/ files stop at the leap-second list's expiry (28 June 2026): in December
    // systemd-analyze still runs right/Europe/Paris on summer time, right/America/Santiago on winter time.
    expect(nextRuns('12:00 right/Europe/Paris', 'UTC', Date.UTC(2026, 11, 1), 1)).toEqual([Date.UTC(2026, 11, 1, 10, 0, 27)]);
    expect(nextRuns('12:00 right/America/Santiago', 'UTC', Date.UTC(2026, 11, 1), 1)).toEqual([Date.UTC(2026, 11, 1, 16, 0, 27)]);
  });

  it('reads "localtime" as the monitor\'s zone, which stands for the machine\'s', () => {
    expect(nextRuns('12:00 localtime', 'Asia/Tokyo', Date.UTC(2026, 5, 1), 1)).toEqual([Date.UTC(2026, 5, 1, 3)]);
    expect(checkSchedule('12:00 right/Europe/Pari').error).toMatch(/Europe\/Paris/);
  });
});
