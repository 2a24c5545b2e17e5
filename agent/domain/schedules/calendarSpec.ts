import { check, LimitRefusal, normalize } from './calendarLimits';
import type { CalendarSpec, Chain, Component } from './calendarTypes';
import { zoneFile, zoneLike, zoneRefusal } from './calendarZone';
/*
 * One systemd calendar event (OnCalendar=, systemd.time(7)) read as systemd 252 reads it
 * (src/shared/calendarspec.c): the same grammar, the same normalisation (two-digit years, sorted
 * lists, ranges trimmed to their last repetition) and the same limits, so an expression is
 * taken here exactly when systemd takes it. A refusal says, in words, which part is wrong.
 */

export type { CalendarSpec, Chain, Component } from './calendarTypes';

export type CalendarParse = { spec: CalendarSpec; error?: undefined } | { spec?: undefined; error: string };

const USEC = 1_000_000;
const INT_MAX = 2 ** 31 - 1;
const MAX_COMPONENTS = 240;

const DAYS: readonly [string, number][] = [
  ['monday', 0], ['mon', 0], ['tuesday', 1], ['tue', 1], ['wednesday', 2], ['wed', 2], ['thursday', 3],
  ['thu', 3], ['friday', 4], ['fri', 4], ['saturday', 5], ['sat', 5], ['sunday', 6], ['sun', 6],
];

const SHORTHANDS: Record<string, Partial<CalendarSpec>> = {
  minutely: { microsecond: [single(0)] },
  hourly: { minute: [single(0)], microsecond: [single(0)] },
  daily: { hour: [single(0)], minute: [single(0)], microsecond: [single(0)] },
  monthly: { day: [single(1)], hour: [single(0)], minute: [single(0)], microsecond: [single(0)] },
  weekly: { weekdays: 1, hour: [single(0)], minute: [single(0)], microsecond: [single(0)] },
  yearly: { month: [single(1)], day: [single(1)], hour: [single(0)], minute: [single(0)], microsecond: [single(0)] },
  quarterly: { month: [1, 4, 7, 10].map(single), day: [single(1)], hour: [single(0)], minute: [single(0)], microsecond: [single(0)] },
  semiannually: { month: [1, 7].map(single), day: [single(1)], hour: [single(0)], minute: [single(0)], microsecond: [single(0)] },
};
for (const alias of ['annually', 'anually']) SHORTHANDS[alias] = SHORTHANDS.yearly!;
for (const alias of ['biannually', 'bi-annually', 'semi-annually']) SHORTHANDS[alias] = SHORTHANDS.semiannually!;

export const CALENDAR_SHORTHANDS: readonly string[] = Object.keys(SHORTHANDS);

function single(value: number): Component {
  return { start: value, stop: -1, repeat: 0 };
}

class Refusal extends Error {}
const refuse = (message: string): never => {
  throw new Refusal(message);
};

/**
 * The calendar event `text` (one expression), or why systemd would refuse it. `stored`: read from a
 * monitor, where a zone in another letter case than its file's, taken before, is still read.
 */
export function parseCalendar(text: string, stored = false): CalendarParse {
  try {
    return { spec: parse(text, stored) };
  } catch (error) {
    if (error instanceof Refusal || error instanceof LimitRefusal) return { error: error.message };
    throw error;
  }
}

function parse(input: string, stored: boolean): CalendarSpec {
  const spec: CalendarSpec = { weekdays: 0, year: null, month: null, day: null, hour: null, minute: null, microsecond: null, endOfMonth: false, utc: false, timezone: null };
  let p = input;
  if (/ utc$/i.test(p)) {
    spec.utc = true;
    p = p.slice(0, -4);
  } else {
    const lastSpace = p.lastIndexOf(' ');
    const last = p.slice(lastSpace + 1);
    const file = lastSpace >= 0 ? zoneFile(last, stored) : undefined;
    if (file) {
      spec.timezone = file.zone;
      p = p.slice(0, lastSpace);
    } else if (lastSpace >= 0 && zoneLike(last) && parseCalendar(p.slice(0, lastSpace)).error === undefined) {
      // A zone-like word that is none is named when it is what keeps the rest from being read.
      refuse(zoneRefusal(last));
    }
  }
  if (p === '') refuse('A calendar event needs a date or a time before its zone, such as "*-*-* 02:30:00 Europe/Paris".');
  const shorthand = SHORTHANDS[p.toLowerCase()];
  if (shorthand) {
    Object.assign(spec, structuredClone(shorthand));
  } else {
    const cursor = { p, at: 0 };
    parseWeekdays(cursor, spec);
    const rest = p.slice(cursor.at).toLowerCase();
    if (cursor.at > 0 && (/^[.,]/.test(rest) || DAYS.some(([name]) => rest.startsWith(name)))) {
      refuse('The weekdays are one part, without spaces: write Mon,Fri or Mon..Fri, then the date or time.');
    }
    if (!parseDate(cursor, spec)) parseTime(cursor, spec);
    if (cursor.at < p.length) refuse(`"${p.slice(cursor.at)}" is left over: a calendar event is [weekdays] [year-month-day] [hour:minute[:second]] [zone].`);
  }
  normalize(spec);
  check(spec);
  return spec;
}

interface Cursor {
  p: string;
  at: number;
}
const ch = (c: Cursor, ahead = 0) => c.p[c.at + ahead] ?? '';
const skipSpaces = (c: Cursor) => {
  while (ch(c) === ' ') c.at++;
};

function parseWeekdays(c: Cursor, spec: CalendarSpec): void {
  let rangeFrom = -1;
  let first = true;
  for (;;) {
    const rest = c.p.slice(c.at).toLowerCase();
    const match = DAYS.find(([name]) => rest.startsWith(name));
    if (!match) {
      if (first) return;
      refuse(`"${c.p.slice(c.at).split(' ')[0]}" is not a day of the week: write Mon, Tue, … Sun, lists (Mon,Wed) or ranges (Mon..Fri).`);
    }
    const [name, nr] = match!;
    const after = c.p[c.at + name.length] ?? '';
    if (!['', '-', '.', ',', ' '].includes(after)) refuse(`"${c.p.slice(c.at).split(/[ ,.]/)[0]}" is not a day of the week: write Mon, Tue, … Sun or their full names.`);
    spec.weekdays |= 1 << nr;
    if (rangeFrom >= 0) {
      if (rangeFrom > nr) refuse('A range of weekdays runs from Monday to Sunday: write Mon..Fri, not Fri..Mon (or two parts, Fri..Sun,Mon).');
      for (let j = rangeFrom + 1; j < nr; j++) spec.weekdays |= 1 << j;
    }
    c.at += name.length;
    if (ch(c) === '') return;
    if (ch(c) === ' ') return skipSpaces(c);
    if (ch(c) === '.') {
      if (rangeFrom >= 0 || ch(c, 1) !== '.') refuse('A range of weekdays is written with two dots, such as Mon..Fri.');
      rangeFrom = nr;
      c.at += 2;
    } else if (ch(c) === '-') {
      if (rangeFrom >= 0) refuse('A range of weekdays is written with two dots, such as Mon..Fri.');
      rangeFrom = nr;
      c.at += 1;
    } else if (ch(c) === ',') {
      rangeFrom = -1;
      c.at += 1;
    }
    if (ch(c) === '' || ch(c) === ' ') {
      skipSpaces(c);
      if (rangeFrom >= 0) refuse('A range of weekdays needs its last day, such as Mon..Fri.');
      return;
    }
    first = false;
  }
}

/** strtoul's digits at the cursor; systemd refuses anything above INT_MAX. */
function number(c: Cursor, what: string): number {
  const digits = /^\d+/.exec(c.p.slice(c.at))?.[0];
  if (digits === undefined) refuse(`The ${what} has "${c.p.slice(c.at).split(/[ :,\-~]/)[0] || 'nothing'}" where a number or * belongs.`);
  c.at += digits!.length;
  const value = Number(digits);
  if (value > INT_MAX) refuse(`The ${what} has ${digits}, far too large a number.`);
  return value;
}

function decimal(c: Cursor, usec: boolean, what: string): number {
  let value = number(c, what);
  if (!usec) return value;
  value *= USEC;
  if (ch(c) === '.' && ch(c, 1) !== '.') {
    c.at++;
    const digits = /^\d+/.exec(c.p.slice(c.at))?.[0];
    if (digits === undefined) refuse(`The ${what} has a decimal point without digits after it.`);
    c.at += digits!.length;
    // systemd reads six digits and rounds on the seventh (parse_fractional_part_u).
    value += Number(digits!.slice(0, 6).padEnd(6, '0')) + (digits!.length > 6 && digits![6]! >= '5' ? 1 : 0);
  }
  if (value > INT_MAX) refuse(`The ${what} is too large: seconds go from 0 to 59.`);
  return value;
}

function chain(c: Cursor, usec: boolean, what: string): Chain {
  if (ch(c) === '*') {
    c.at++;
    return usec ? [{ start: 0, stop: -1, repeat: USEC }] : null;
  }
  const items: Component[] = [];
  for (;;) {
    if (items.length > MAX_COMPONENTS) refuse(`The ${what} lists more than ${MAX_COMPONENTS} values.`);
    const start = decimal(c, usec, what);
    let stop = -1;
    let repeat = 0;
    if (ch(c) === '.' && ch(c, 1) === '.') {
      c.at += 2;
      stop = decimal(c, usec, what);
      repeat = usec ? USEC : 1;
    }
    if (ch(c) === '/') {
      c.at++;
      repeat = decimal(c, usec, what);
      if (repeat === 0) refuse(`The ${what} repeats every 0: a repetition is 1 or more.`);
    } else if (usec && stop >= 0 && start + repeat > stop) {
      refuse(`The ${what} range ${start / USEC}..${stop / USEC} is shorter than a second: give it a repetition such as /0.5.`);
    }
    if (!['', ' ', ',', '-', '~', ':'].includes(ch(c))) refuse(`The ${what} has "${ch(c)}" where a list (,), range (..) or repetition (/) belongs.`);
    items.push({ start, stop, repeat });
    if (ch(c) !== ',') return items;
    c.at++;
  }
}

/** The date part; true when it was a @timestamp, which has no time after it. */
function parseDate(c: Cursor, spec: CalendarSpec): boolean {
  if (ch(c) === '') return false;
  if (ch(c) === '@') {
    // strtoul() reads it: spaces and a sign may come first, "-0" is 0 and any other "-" wraps to
    // a moment before 1970; the year's limit (2199) is the only other bound.
    const read = /^@ *([+-]?)(\d+)/.exec(c.p.slice(c.at));
    if (!read) refuse(`The timestamp after @ has "${c.p.slice(c.at + 1) || 'nothing'}" where seconds since 1970 belong.`);
    c.at += read![0].length;
    const seconds = Number(read![2]);
    const d = new Date(read![1] === '-' && seconds !== 0 ? Number.NaN : seconds * 1000);
    if (Number.isNaN(d.getTime())) refuse('The timestamp after @ is out of range: give seconds since 1970, up to the year 2199.');
    Object.assign(spec, {
      utc: true,
      year: [single(d.getUTCFullYear())],
      month: [single(d.getUTCMonth() + 1)],
      day: [single(d.getUTCDate())],
      hour: [single(d.getUTCHours())],
      minute: [single(d.getUTCMinutes())],
      microsecond: [single(d.getUTCSeconds() * USEC)],
    });
    return true;
  }
  const start = c.at;
  const first = chain(c, false, 'date');
  if (ch(c) === '' || ch(c) === ':') {
    c.at = start;
    return false;
  }
  if (ch(c) === '~') spec.endOfMonth = true;
  else if (ch(c) !== '-') refuse('The date is written year-month-day or month-day, such as 2026-03-08, *-*-01 or *-02~01.');
  c.at++;
  const second = chain(c, false, 'date');
  if (ch(c) === '' || ch(c) === ' ') {
    skipSpaces(c);
    spec.month = first;
    spec.day = second;
    return false;
  }
  if (spec.endOfMonth) refuse('A "~" (days before the month\'s end) goes between the month and the day: *-02~01.');
  if (ch(c) === '~') spec.endOfMonth = true;
  else if (ch(c) !== '-') refuse('The date is written year-month-day or month-day, such as 2026-03-08, *-*-01 or *-02~01.');
  c.at++;
  const third = chain(c, false, 'date');
  if (ch(c) !== '' && ch(c) !== ' ') refuse('The date is written year-month-day or month-day, such as 2026-03-08, *-*-01 or *-02~01.');
  skipSpaces(c);
  spec.year = first;
  spec.month = second;
  spec.day = third;
  return false;
}

function parseTime(c: Cursor, spec: CalendarSpec): void {
  if (ch(c) === '') {
    spec.hour = [single(0)];
    spec.minute = [single(0)];
    spec.microsecond = [single(0)];
    return;
  }
  spec.hour = chain(c, false, 'hour');
  if (ch(c) !== ':') refuse('The time is written hour:minute or hour:minute:second, such as 02:30 or *:0/15.');
  c.at++;
  spec.minute = chain(c, false, 'minute');
  if (ch(c) === '') {
    spec.microsecond = [single(0)];
    return;
  }
  if (ch(c) !== ':') refuse('The time is written hour:minute or hour:minute:second, such as 02:30 or *:0/15.');
  c.at++;
  spec.microsecond = chain(c, true, 'second');
  if (ch(c) !== '') refuse('The time is written hour:minute or hour:minute:second, such as 02:30 or *:0/15.');
}

