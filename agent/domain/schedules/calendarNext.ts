import type { CalendarSpec, Chain } from './calendarSpec';
import { gmtime, LibcClock, timegm, type Tm } from './libcTime';

/*
 * The next elapse of a calendar event, step for step as systemd 252 finds it (find_next in
 * calendarspec.c): walk the wall-clock fields from the largest down, ask mktime() to normalise
 * after each, and start again from the normalised time when a field fell into a hole (31 April,
 * a time skipped by a spring-forward switch). So a time the clocks jump over is skipped, not run
 * at the jump as cron does, and the wall clock only moves forward: in a fall-back repeat each
 * time runs once, in the copy the search meets first. systemd gives up after 1000 steps or past
 * the year 2199 ("never"); so does this, which bounds the time of any search.
 */

const USEC = 1_000_000;
const MAX_YEAR = 2199;
const MAX_ITERATIONS = 1000;

type Clock = { mktime(tm: Tm): number | null; localtime(t: number): Tm };

const UTC_CLOCK: Clock = { mktime: timegm, localtime: gmtime };

/**
 * find_matching_component: the smallest value of the chain at or after `value`; null when none.
 * `tm` is used only for days counted from the month's end.
 */
function matching(spec: CalendarSpec, chain: Chain, isDay: boolean, tm: Tm, value: number, clock: Clock): number | null | undefined {
  if (chain === null) return undefined;
  let best: number | null = null;
  for (const item of chain) {
    let start = item.start;
    let stop = item.stop;
    if (spec.endOfMonth && isDay) {
      start = endOfMonth(tm, start, clock);
      stop = endOfMonth(tm, stop, clock);
      if (stop > 0) [start, stop] = [stop, start];
    }
    if (start >= value) {
      if (best === null || start < best) best = start;
    } else if (item.repeat > 0) {
      const k = start + item.repeat * Math.ceil((value - start) / item.repeat);
      if ((best === null || k < best) && (stop < 0 || k <= stop)) best = k;
    }
  }
  return best;
}

function endOfMonth(tm: Tm, day: number, clock: Clock): number {
  const t: Tm = { ...tm, mon: tm.mon + 1, mday: 1 - day };
  if (clock.mktime(t) === null || t.mon !== tm.mon) return -1;
  return t.mday;
}

/** tm_within_bounds: 1 unchanged, 0 normalised forward (tm moved), -1 out of range or backward. */
function withinBounds(tm: Tm, clock: Clock): number {
  if (tm.year + 1900 > MAX_YEAR) return -1;
  const t = { ...tm };
  if (clock.mktime(t) === null) return -1;
  let cmp: number;
  if ((cmp = Math.sign(t.year - tm.year)) !== 0) t.mon = 0;
  else if ((cmp = Math.sign(t.mon - tm.mon)) !== 0) t.mday = 1;
  else if ((cmp = Math.sign(t.mday - tm.mday)) !== 0) t.hour = 0;
  else if ((cmp = Math.sign(t.hour - tm.hour)) !== 0) t.min = 0;
  else if ((cmp = Math.sign(t.min - tm.min)) !== 0) t.sec = 0;
  else cmp = Math.sign(t.sec - tm.sec);
  if (cmp < 0) return -1;
  if (cmp > 0) Object.assign(tm, t);
  return cmp === 0 ? 1 : 0;
}

function matchesWeekday(bits: number, tm: Tm, clock: Clock): boolean {
  if (bits < 0 || bits >= 127) return true;
  const t = { ...tm };
  if (clock.mktime(t) === null) return false;
  const k = t.wday === 0 ? 6 : t.wday - 1;
  return (bits & (1 << k)) !== 0;
}

function findNext(spec: CalendarSpec, start: Tm, startUsec: number, clock: Clock, resetDst: boolean, budget: { steps: number }): { tm: Tm; usec: number } | null {
  const c: Tm = { ...start };
  let usec = startUsec;
  const reset = (from: 'mon' | 'mday' | 'hour' | 'min' | 'sec') => {
    if (from === 'mon') c.mon = 0;
    if (from === 'mon' || from === 'mday') c.mday = 1;
    if (from !== 'min' && from !== 'sec') c.hour = 0;
    if (from !== 'sec') c.min = 0;
    c.sec = 0;
    usec = 0;
  };
  while (budget.steps-- > 0) {
    clock.mktime(c);
    if (resetDst) c.isdst = -1;

    let r = matching(spec, spec.year, false, c, c.year + 1900, clock);
    if (r === null) return null;
    if (r !== undefined && r !== c.year + 1900) {
      c.year = r - 1900;
      reset('mon');
    }
    if (withinBounds(c, clock) <= 0) return null;

    r = matching(spec, spec.month, false, c, c.mon + 1, clock);
    let bounds = 1;
    if (r !== undefined && r !== null && r !== c.mon + 1) {
      c.mon = r - 1;
      reset('mday');
    }
    if (r === null || (bounds = withinBounds(c, clock)) < 0) {
      c.year++;
      reset('mon');
      continue;
    }
    if (bounds === 0) continue;

    r = matching(spec, spec.day, true, c, c.mday, clock);
    if (r !== undefined && r !== null && r !== c.mday) {
      c.mday = r;
      reset('hour');
    }
    if (r === null || (bounds = withinBounds(c, clock)) < 0) {
      c.mon++;
      reset('mday');
      continue;
    }
    if (bounds === 0) continue;

    if (!matchesWeekday(spec.weekdays, c, clock)) {
      c.mday++;
      reset('hour');
      continue;
    }

    r = matching(spec, spec.hour, false, c, c.hour, clock);
    if (r !== undefined && r !== null && r !== c.hour) {
      c.hour = r;
      reset('min');
    }
    if (r === null || (bounds = withinBounds(c, clock)) < 0) {
      c.mday++;
      reset('hour');
      continue;
    }
    if (bounds === 0) continue;

    r = matching(spec, spec.minute, false, c, c.min, clock);
    if (r !== undefined && r !== null && r !== c.min) {
      c.min = r;
      reset('sec');
    }
    if (r === null || (bounds = withinBounds(c, clock)) < 0) {
      c.hour++;
      reset('min');
      continue;
    }
    if (bounds === 0) continue;

    const r2 = matching(spec, spec.microsecond, false, c, c.sec * USEC + usec, clock);
    if (r2 !== undefined && r2 !== null) {
      usec = r2 % USEC;
      c.sec = Math.floor(r2 / USEC);
    }
    if (r2 === null || (bounds = withinBounds(c, clock)) < 0) {
      c.min++;
      c.sec = 0;
      usec = 0;
      continue;
    }
    if (bounds === 0) continue;
    return { tm: c, usec };
  }
  return null;
}

/**
 * The first elapse strictly after `afterUsec` (microseconds since the epoch) in `zone` (the
 * spec's own zone wins), or null when systemd would say "never".
 */
export function calendarNextUsec(spec: CalendarSpec, zone: string, afterUsec: number, clock?: LibcClock): number | null {
  const usecNow = afterUsec + 1;
  const t = Math.floor(usecNow / USEC);
  // glibc's timegm() counts the leap seconds of a right/ zone too (a @timestamp with one is UTC, 27 s behind).
  const utcClock = spec.timezone?.startsWith('right/') ? new LibcClock('right/UTC') : UTC_CLOCK;
  const zoned: Clock = spec.utc ? utcClock : spec.timezone !== null ? new LibcClock(spec.timezone) : (clock ?? new LibcClock(zone));
  // One budget of steps for the whole search, the tries of later hours included.
  const budget = { steps: MAX_ITERATIONS };
  let found = findNext(spec, zoned.localtime(t), usecNow - t * USEC, zoned, true, budget);
  while (found !== null) {
    const at = zoned.mktime({ ...found.tm });
    if (at === null) return null;
    if (at * USEC + found.usec >= usecNow) return at * USEC + found.usec;
    // mktime() moved a time in a spring-forward gap back before the start (it does where the
    // clocks jump at midnight, or in a zone whose winter time is its "daylight" time, Dublin):
    // systemd 252 then tries the next hour, keeping the daylight flag mktime() gave, as its
    // own calls to mktime() show under LD_PRELOAD.
    const next = { ...found.tm, hour: found.tm.hour + 1 };
    zoned.mktime(next);
    found = findNext(spec, next, found.usec, zoned, false, budget);
  }
  return null;
}
