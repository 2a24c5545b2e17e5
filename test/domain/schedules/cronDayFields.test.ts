import { describe, expect, it } from 'vitest';
import { checkSchedule, longestCronGapMinutes, nextRuns, previousRunBefore, scheduleWords, shortestGapMinutes } from '../../../agent/domain/schedules';

/*
 * The two day fields as Vixie cron, cronie and Debian's cron combine them (entry.c sets DOM_STAR or
 * DOW_STAR when the field's first character is "*"; cron.c's find_jobs then asks for both days when
 * either flag is set, for either day otherwise). So "*\/2" in the day of month with a weekday is odd
 * days that are that weekday, not odd days and that weekday; "1-31/2" (no star) is either.
 * The reference below is that rule written out over every day, apart from the code under test.
 */

const DAY = 86_400_000;

function expand(field: string, min: number, max: number, names: string[] = []): Set<number> {
  const values = new Set<number>();
  const number = (text: string) => (names.includes(text.toLowerCase()) ? names.indexOf(text.toLowerCase()) + min : Number(text));
  for (const part of field.split(',')) {
    const [range, step = '1'] = part.split('/');
    const [from, to] = range === '*' ? [min, max] : range!.includes('-') ? range!.split('-').map(number) : [number(range!), part.includes('/') ? max : number(range!)];
    for (let v = from!; v <= to!; v += Number(step)) values.add(v);
  }
  return values;
}

/** Vixie cron's days at 00:00 UTC of a `0 0 DOM MON DOW` line, from `from` for `days` days. */
function vixieMidnights(dom: string, month: string, dow: string, from: number, days: number): number[] {
  const doms = expand(dom, 1, 31);
  const months = expand(month, 1, 12, ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']);
  const dows = expand(dow, 0, 7, ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']);
  if (dows.has(7)) dows.add(0);
  const both = dom.startsWith('*') || dow.startsWith('*');
  const runs: number[] = [];
  for (let at = from; at < from + days * DAY; at += DAY) {
    const date = new Date(at);
    if (!months.has(date.getUTCMonth() + 1)) continue;
    const onDay = doms.has(date.getUTCDate());
    const onWeekday = dows.has(date.getUTCDay());
    if (both ? onDay && onWeekday : onDay || onWeekday) runs.push(at);
  }
  return runs;
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('the day of month and the day of week, as cron combines them', () => {
  const from = Date.UTC(2026, 0, 1);
  const lines: Array<[string, string, string]> = [
    ['*/2', '*', '1'],
    ['*/2', '*', 'mon'],
    ['*/1', '*', '3'],
    ['1', '*', '*/2'],
    ['*/3', '*', '1-5'],
    ['13', '*', '*/5'],
    ['*/10', 'jan-jun', 'fri'],
    ['1-31/2', '*', '1'],
    ['13', '*', '5'],
    ['1-31', '*', '1'],
    ['*', '*', '1'],
    ['1,15', '*', '*'],
    ['*/2', '*', '0-7'],
  ];
  for (const [dom, month, dow] of lines) {
    const schedule = `0 0 ${dom} ${month} ${dow}`;
    it(`"${schedule}" runs on the days cron runs it`, () => {
      const expected = vixieMidnights(dom, month, dow, from + DAY, 4000).slice(0, 40);
      const runs = nextRuns(schedule, 'UTC', from, 40).filter((run) => run < from + 4001 * DAY);
      expect(runs.map(iso)).toEqual(expected.map(iso));
      // The run before each run is the one cron made before it (which run a pulse answers).
      for (let i = 1; i < runs.length; i++) expect(previousRunBefore(schedule, 'UTC', runs[i]!)).toBe(runs[i - 1]);
    });
  }

  it('finds them in a zone, across a daylight-saving night, and the run before', () => {
    // Days 1, 8, 15, 22, 29 that are Sundays: every Sunday of March 2026, then none until November.
    // 2026-03-08 is New York's jump, where 02:30 does not exist: cron runs it right after (03:00 EDT).
    const runs = nextRuns('30 2 */7 * sun', 'America/New_York', Date.UTC(2026, 1, 23), 6);
    expect(runs.map((ms) => new Date(ms).toISOString().slice(0, 16))).toEqual(['2026-03-01T07:30', '2026-03-08T07:00', '2026-03-15T06:30', '2026-03-22T06:30', '2026-03-29T06:30', '2026-11-01T07:30']);
    expect(previousRunBefore('30 2 */7 * sun', 'America/New_York', runs[2]!)).toBe(runs[1]);
    expect(previousRunBefore('30 2 */7 * sun', 'America/New_York', runs[5]!)).toBe(runs[4]);
  });

  it('gives the gaps of those days, not of either', () => {
    // Odd Mondays are at least 14 days apart: no day-to-day gap of a day.
    expect(shortestGapMinutes('0 0 */2 * 1', Date.UTC(2026, 0, 1), 400)).toBe(Infinity);
    expect(longestCronGapMinutes('0 0 */2 * 1', Date.UTC(2026, 0, 1), 400)).toBeGreaterThanOrEqual(14 * 1440);
    expect(longestCronGapMinutes('0 0 */1 * 3', Date.UTC(2026, 0, 7), 28)).toBe(7 * 1440);
  });
});

describe('lists whose values overlap, which cron takes', () => {
  // cron sets a bit per value, so a value named twice (Sunday as 0 and 7, a range and a value in
  // it) is simply that value; cron-parser refused them as duplicates.
  const from = Date.UTC(2026, 5, 1); // a Monday
  const lines: Array<[string, string, string]> = [
    ['0 0 * * 0,7', '0', '*'],
    ['0 0 * * 6-7,0-1', '0,1,6', '*'],
    ['0 0 * * 5-7,0', '0,5,6', '*'],
    ['0 0 * * 1,mon', '1', '*'],
    ['0 0 * * sun,7', '0', '*'],
  ];
  for (const [schedule, weekdays] of lines) {
    it(`takes "${schedule}" as written and runs it on the days cron does`, () => {
      expect(checkSchedule(schedule)).toEqual({ schedule });
      const runs = nextRuns(schedule, 'UTC', from, 10);
      expect(runs.map(iso)).toEqual(vixieMidnights('*', '*', weekdays, from + DAY, 120).slice(0, 10).map(iso));
      expect(scheduleWords(schedule, 'UTC')).not.toBeNull();
    });
  }

  it('takes overlapping minutes, hours and days of the month, and finds each run once', () => {
    expect(checkSchedule('0-30,15 * * * *')).toEqual({ schedule: '0-30,15 * * * *' });
    expect(nextRuns('0-30,15 * * * *', 'UTC', from, 32).map((ms) => new Date(ms).toISOString().slice(11, 16))).toEqual([
      ...Array.from({ length: 30 }, (_, i) => `00:${String(i + 1).padStart(2, '0')}`),
      '01:00',
      '01:01',
    ]);
    expect(nextRuns('*,5 2 * * *', 'UTC', from, 2).map((ms) => new Date(ms).toISOString().slice(0, 16))).toEqual(['2026-06-01T02:00', '2026-06-01T02:01']);
    expect(nextRuns('0 0 1-5,3 * *', 'UTC', from, 5).map(iso)).toEqual(['2026-06-02', '2026-06-03', '2026-06-04', '2026-06-05', '2026-07-01']);
    expect(nextRuns('0 0 1-10,*/2 * 1', 'UTC', from, 3).map(iso)).toEqual(['2026-06-02', '2026-06-03', '2026-06-04']);
  });

  it('still refuses a value out of range in such a list', () => {
    expect(checkSchedule('0 0 * * 0,8').error).toBe('The day-of-week field is 8, but days of the week go from 0 to 7.');
  });
});

describe('a step after a single value', () => {
  it('is refused, naming the field and what to write: cron steps only a range or *', () => {
    expect(checkSchedule('5/20 * * * *').error).toBe(
      'The minute field "5/20" steps a single value, which cron does not do (Debian\'s cron runs it at 5 alone): write 5-59/20 to repeat from 5, or 5 for once.',
    );
    expect(checkSchedule('0 0 * * mon/2').error).toMatch(/^The day-of-week field "mon\/2" steps a single value, .* write mon-6\/2 /);
    expect(checkSchedule('0 1/6 * * *').error).toMatch(/^The hour field "1\/6" .* write 1-23\/6 to repeat from 1/);
    expect(checkSchedule('5-59/20 * * * *')).toEqual({ schedule: '5-59/20 * * * *' });
    expect(checkSchedule('*/20 * * * *')).toEqual({ schedule: '*/20 * * * *' });
  });
});
