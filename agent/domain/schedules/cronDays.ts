import { CronExpressionParser } from 'cron-parser';
import { parserText } from './cronParserText';

/*
 * The days a cron schedule runs on, found with plain date arithmetic. cron-parser walks to a run
 * step by step in the schedule's zone at tens of microseconds a step, so a schedule whose runs are
 * years apart (`0 0 29 2 *`, every 4 years; `0 0 * 2 1#5`, the fifth Monday of February, up to 40
 * years) cost it tens of milliseconds per run found, and a second for the default grace's 64 runs,
 * all of it blocking the agent. Here a day costs a few arithmetic operations and a month that
 * does not match is skipped whole, so cronSchedule.ts can start cron-parser right before the
 * schedule's next day, and every search is bounded by `limitYears`.
 *
 * A day matches as Vixie cron, cronie and Debian's cron match it (entry.c, cron.c): when either day
 * field starts with `*` (`*`, `*\/2`, `*\/1`), the day must be in both; otherwise in either. cron-parser
 * asks for both only when a field is exactly `*`, so `*\/2` in the day of month with a weekday ran on
 * odd days and on that weekday, days cron never runs the job: scheduleForDays hands cron-parser
 * those days as a list. `#` (the nth weekday of the month) and `L` are honoured.
 */

const DAY = 86_400_000;
/** How far a search looks for a schedule's next or last day: beyond any real gap (40 years for `1#5` in February). */
export const MAX_SEARCH_YEARS = 100;

interface DayRule {
  /** The times of day it runs at, minutes after midnight, ascending. */
  times: number[];
  months: ReadonlySet<number>;
  days: ReadonlySet<number>;
  lastDay: boolean;
  weekdays: ReadonlySet<number>;
  /** The weekdays of an `L` (the last such weekday of the month). */
  lastWeekdays: ReadonlySet<number>;
  nth: number;
  /** Both fields must match (one starts with `*`), not either. */
  bothDays: boolean;
  /** cron-parser reads the two fields otherwise: neither is `*` or `?` alone, yet cron asks for both. */
  parserDiffers: boolean;
}

const rules = new Map<string, DayRule | null>();

function dayRuleOf(schedule: string): DayRule | null {
  if (rules.has(schedule)) return rules.get(schedule)!;
  let rule: DayRule | null = null;
  try {
    const { minute, hour, dayOfMonth, month, dayOfWeek } = CronExpressionParser.parse(parserText(schedule), { tz: 'UTC' }).fields;
    const [, , dayText = '*', , weekdayText = '*'] = schedule.trim().split(/\s+/);
    // "?" is cron-parser's "*"; cron has no "?".
    const bothDays = /^[*?]/.test(dayText) || /^[*?]/.test(weekdayText);
    const weekdayValues = dayOfWeek.values as Array<number | string>;
    const dayValues = dayOfMonth.values as Array<number | string>;
    // Anything beyond numbers, L and nL is left to cron-parser alone: a day this file did not
    // know would be skipped, and the run on it lost.
    const known = dayValues.every((v) => typeof v === 'number' || v === 'L') && weekdayValues.every((v) => typeof v === 'number' || /^[0-7]L$/.test(v));
    if (!known) throw new Error('not a day rule this file reads');
    rule = {
      times: (hour.values as number[]).flatMap((h) => (minute.values as number[]).map((m) => h * 60 + m)).sort((a, b) => a - b),
      months: new Set(month.values as number[]),
      days: new Set(dayValues.filter((v): v is number => typeof v === 'number')),
      lastDay: dayOfMonth.hasLastChar,
      weekdays: new Set(weekdayValues.filter((v): v is number => typeof v === 'number').map((v) => v % 7)),
      lastWeekdays: new Set(dayOfWeek.hasLastChar ? weekdayValues.map((v) => parseInt(String(v).charAt(0), 10) % 7) : []),
      nth: dayOfWeek.nthDay,
      bothDays,
      parserDiffers: bothDays && !dayOfMonth.isWildcard && !dayOfWeek.isWildcard,
    };
  } catch {
    rule = null;
  }
  if (rules.size >= 10_000) rules.clear();
  rules.set(schedule, rule);
  return rule;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function matchesDay(rule: DayRule, year: number, month: number, day: number): boolean {
  const length = daysInMonth(year, month);
  const weekday = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  const onDay = rule.days.has(day) || (rule.lastDay && day === length);
  const onWeekday =
    (rule.weekdays.has(weekday) && (rule.nth <= 0 || Math.ceil(day / 7) === rule.nth)) ||
    (rule.lastWeekdays.has(weekday) && day + 7 > length);
  return rule.bothDays ? onDay && onWeekday : onDay || onWeekday;
}

/**
 * The schedule for cron-parser to walk over the wall-clock dates from `fromDay` to `toDay` (UTC
 * midnights less than 28 days apart): itself, or where cron-parser would take either day field
 * for cron's both (`0 0 *\/2 * 1`), the dates cron runs it on in that time as a list of days of
 * the month, which name no other date so close; null when it runs on none of them.
 */
export function scheduleForDays(schedule: string, fromDay: number, toDay: number): string | null {
  const rule = dayRuleOf(schedule);
  if (!rule?.parserDiffers) return schedule;
  const days = new Set<number>();
  for (let day = fromDay; day <= toDay; day += DAY) {
    const date = new Date(day);
    const month = date.getUTCMonth() + 1;
    if (rule.months.has(month) && matchesDay(rule, date.getUTCFullYear(), month, date.getUTCDate())) days.add(date.getUTCDate());
  }
  if (days.size === 0) return null;
  const [minute, hour, , month] = parserText(schedule).split(/\s+/);
  return `${minute} ${hour} ${[...days].sort((a, b) => a - b).join(',')} ${month} *`;
}

/** Whether cron-parser may walk the schedule over any stretch, or only through scheduleForDays. */
export function walksAnyStretch(schedule: string): boolean {
  return dayRuleOf(schedule)?.parserDiffers !== true;
}

/**
 * The first date at or after the date of `from` (both as UTC midnights of wall-clock dates) on
 * which `schedule` runs. Null when it has none within `limitYears`; undefined when the schedule
 * is not one cron-parser reads (the caller leaves it to cron-parser, which refuses it).
 */
export function firstRunDay(schedule: string, from: number, limitYears = MAX_SEARCH_YEARS): number | null | undefined {
  const rule = dayRuleOf(schedule);
  if (!rule) return undefined;
  const start = new Date(from);
  let year = start.getUTCFullYear();
  let month = start.getUTCMonth() + 1;
  let day = start.getUTCDate();
  const lastYear = year + limitYears;
  while (year <= lastYear) {
    if (rule.months.has(month)) {
      for (const length = daysInMonth(year, month); day <= length; day++) {
        if (matchesDay(rule, year, month, day)) return Date.UTC(year, month - 1, day);
      }
    }
    day = 1;
    month = month === 12 ? 1 : month + 1;
    if (month === 1) year++;
  }
  return null;
}

/** The last date at or before the date of `from` on which `schedule` runs; null and undefined as firstRunDay. */
export function lastRunDay(schedule: string, from: number, limitYears = MAX_SEARCH_YEARS): number | null | undefined {
  const rule = dayRuleOf(schedule);
  if (!rule) return undefined;
  const start = new Date(from);
  let year = start.getUTCFullYear();
  let month = start.getUTCMonth() + 1;
  let day: number | null = start.getUTCDate();
  const firstYear = year - limitYears;
  while (year >= firstYear) {
    if (rule.months.has(month)) {
      for (day ??= daysInMonth(year, month); day >= 1; day--) {
        if (matchesDay(rule, year, month, day)) return Date.UTC(year, month - 1, day);
      }
    }
    day = null;
    month = month === 1 ? 12 : month - 1;
    if (month === 12) year--;
  }
  return null;
}

/**
 * The shortest gap in minutes between two consecutive runs of `schedule` on wall clocks, looking
 * at the days from `from` for `days` days: within a day (the same times every day it runs), and
 * across midnight when two days in a row run. Infinity for a schedule that runs once a day at
 * most, or is not understood. A few thousand arithmetic steps, whatever the schedule.
 */
export function shortestGapMinutes(schedule: string, from: number, days: number): number {
  const rule = dayRuleOf(schedule);
  if (!rule || rule.times.length === 0) return Infinity;
  const { times } = rule;
  let shortest = Infinity;
  for (let i = 1; i < times.length; i++) shortest = Math.min(shortest, times[i]! - times[i - 1]!);
  const acrossMidnight = times[0]! + 24 * 60 - times[times.length - 1]!;
  if (acrossMidnight >= shortest) return shortest;
  let previous = false;
  for (let day = 0; day <= days; day++) {
    const date = new Date(dayStart(from) + day * DAY);
    const runs = rule.months.has(date.getUTCMonth() + 1) && matchesDay(rule, date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
    if (runs && previous) return acrossMidnight;
    previous = runs;
  }
  return shortest;
}

/**
 * The longest gap in minutes between two consecutive runs of `schedule` on wall clocks, over the
 * `days` days from `from`. The time from the first day's midnight to the first run, and from the
 * last run to the end of the last day, count as gaps too: each is part of a real gap, so a rare
 * schedule reads as a long one. Infinity when no run comes in those days or the schedule is not
 * understood.
 */
export function longestGapMinutes(schedule: string, from: number, days: number): number {
  const rule = dayRuleOf(schedule);
  if (!rule || rule.times.length === 0) return Infinity;
  const { times } = rule;
  const first = times[0]!;
  const last = times[times.length - 1]!;
  let longest = 0;
  for (let i = 1; i < times.length; i++) longest = Math.max(longest, times[i]! - times[i - 1]!);
  let previousDay: number | null = null;
  for (let day = 0; day < days; day++) {
    const date = new Date(dayStart(from) + day * DAY);
    if (!rule.months.has(date.getUTCMonth() + 1) || !matchesDay(rule, date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate())) continue;
    longest = Math.max(longest, previousDay === null ? day * 1440 + first : (day - previousDay) * 1440 + first - last);
    previousDay = day;
  }
  return previousDay === null ? Infinity : Math.max(longest, (days - previousDay) * 1440 - last);
}

/** The UTC midnight at or before `ms`. */
export function dayStart(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}
