import { CronExpressionParser } from 'cron-parser';
import { describe, expect, it, vi } from 'vitest';
import { dayStart, firstRunDay, lastRunDay, MAX_SEARCH_YEARS } from '../../../agent/domain/schedules/cronDays';
import { nextRunAfter, previousRunBefore, SEARCH_HORIZON_MS } from '../../../agent/domain/schedules/cronSchedule';
import { defaultGraceMinutes } from '../../../agent/domain/monitors/dueTime';
import { checkSchedule } from '../../../agent/domain/schedules';

const DAY = 86_400_000;
const t = (iso: string) => Date.parse(iso);
const iso = (ms: number | null | undefined) => (ms == null ? ms : new Date(ms).toISOString());

/*
 * Schedules whose runs are years apart are searched by date arithmetic and bounded searches, never
 * by cron-parser's step-by-step walk through the years between: what is asserted here is the
 * bound (a search looks MAX_SEARCH_YEARS ahead, a parameter the agent passes too) and the
 * documented answers, not a time (timed unit tests are not reliable on a shared machine; the
 * bench, test/bench/rareSchedules.ts, measures it).
 */

describe('firstRunDay and lastRunDay: the days a schedule runs on, as cron-parser reads them', () => {
  const schedules = [
    '0 3 * * *', '*/5 * * * *', '0 0 29 2 *', '0 0 * 2 1#5', '0 9 1,15 * 1-5', '0 9 13 * 5', '0 0 * * 5L', '0 0 L 2 *',
    '0 0 ? * 1', '30 2 31 * *', '0 0 1 1 *', '0 12 * * 7', '0 0 29 2 1#5', '15 4 8-14 * 2', '0 0 * 3,6,9,12 0#2',
  ];
  const starts = [t('2026-11-27T14:00:00Z'), t('2027-02-28T23:59:59Z'), t('2028-02-29T00:00:00Z'), t('2031-12-31T12:00:00Z')];

  it.each(schedules)('%s: the day of cron-parser\'s next and previous run (in UTC) from any day', (schedule) => {
    for (const start of starts) {
      const next = CronExpressionParser.parse(schedule, { tz: 'UTC', currentDate: new Date(dayStart(start) - 1) }).next().getTime();
      expect(iso(firstRunDay(schedule, dayStart(start)))).toBe(iso(dayStart(next)));
      const previous = CronExpressionParser.parse(schedule, { tz: 'UTC', currentDate: new Date(dayStart(start) + DAY) }).prev().getTime();
      expect(iso(lastRunDay(schedule, dayStart(start)))).toBe(iso(dayStart(previous)));
    }
  });

  it('looks no further than the limit it is given: the fifth Monday of February comes 28 years after 2016', () => {
    expect(iso(firstRunDay('0 0 * 2 1#5', t('2017-01-01T00:00:00Z'), 20))).toBeNull();
    expect(iso(firstRunDay('0 0 * 2 1#5', t('2017-01-01T00:00:00Z'), 30))).toBe('2044-02-29T00:00:00.000Z');
    expect(iso(lastRunDay('0 0 * 2 1#5', t('2043-12-31T00:00:00Z'), 20))).toBeNull();
    expect(MAX_SEARCH_YEARS).toBeGreaterThanOrEqual(40); // the longest real gap: 2072 to 2112 (2100 is no leap year)
    expect(iso(firstRunDay('0 0 * 2 1#5', t('2073-01-01T00:00:00Z')))).toBe('2112-02-29T00:00:00.000Z');
  });

  it('leaves a schedule it does not read to cron-parser (undefined), never guesses its days', () => {
    expect(firstRunDay('not a schedule', 0)).toBeUndefined();
  });
});

describe('a schedule whose runs are years apart', () => {
  it.each([
    ['0 0 29 2 *', 'Europe/Paris', '2028-02-28T23:00:00.000Z', '2024-02-28T23:00:00.000Z'],
    ['0 0 * 2 1#5', 'Europe/Paris', '2044-02-28T23:00:00.000Z', '2016-02-28T23:00:00.000Z'],
    ['30 2 29 2 *', 'America/New_York', '2028-02-29T07:30:00.000Z', '2024-02-29T07:30:00.000Z'],
    ['0 0 29 2 1#5', 'UTC', '2028-02-29T00:00:00.000Z', '2024-02-29T00:00:00.000Z'],
  ])('%s in %s: its next and last run, found across the years', (schedule, zone, next, previous) => {
    const now = t('2026-11-27T14:00:00Z');
    expect(iso(nextRunAfter(schedule, zone, now))).toBe(next);
    expect(iso(previousRunBefore(schedule, zone, now))).toBe(previous);
    // From the run itself, the search goes on to the one after (years on), as the loop asks after each run.
    expect(nextRunAfter(schedule, zone, t(next))).toBeGreaterThan(t(next) + 365 * DAY);
  });

  it('gets the default grace cap, 60 minutes, like any schedule that runs less than hourly, and is accepted', () => {
    for (const schedule of ['0 0 29 2 *', '0 0 * 2 1#5', '0 0 29 2 1#5']) {
      expect(defaultGraceMinutes(schedule, t('2026-11-27T14:00:00Z'))).toBe(60);
      expect(checkSchedule(schedule)).toEqual({ schedule });
    }
    // The gap across midnight counts when two days in a row run, even months away.
    expect(defaultGraceMinutes('0,50 0,23 * 6 *', t('2026-11-27T14:00:00Z'))).toBe(10);
    expect(defaultGraceMinutes('0,50 0,23 1 6 *', t('2026-11-27T14:00:00Z'))).toBe(50);
  });

  it('costs a few short searches: cron-parser is never asked to walk more than a few days, nor at all for the grace', () => {
    const parse = vi.spyOn(CronExpressionParser, 'parse');
    try {
      for (const [schedule, zone] of [['0 0 29 2 *', 'Europe/Paris'], ['0 0 * 2 1#5', 'America/New_York'], ['0 0 * 2 1#5', 'UTC']]) {
        nextRunAfter(schedule, zone, t('2031-05-05T10:00:00Z'));
        previousRunBefore(schedule, zone, t('2031-05-05T10:00:00Z'));
        nextRunAfter(schedule, zone, t('2044-02-29T05:00:00Z'));
        defaultGraceMinutes(schedule, t('2031-05-05T10:00:00Z'));
      }
      const searches = parse.mock.calls.filter(([, options]) => options?.currentDate !== undefined);
      expect(searches.length).toBeGreaterThan(0);
      expect(searches.length).toBeLessThanOrEqual(3 * 3 * 6);
      for (const [, options] of searches) {
        const bound = options!.endDate ?? options!.startDate;
        expect(bound).toBeDefined();
        const span = Math.abs(new Date(bound as Date).getTime() - new Date(options!.currentDate as Date).getTime());
        expect(span).toBeLessThanOrEqual(SEARCH_HORIZON_MS + 2 * DAY);
      }
    } finally {
      parse.mockRestore();
    }
  });
});
