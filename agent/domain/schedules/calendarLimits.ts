import type { CalendarSpec, Chain } from './calendarTypes';

/* systemd's normalisation of a calendar event once read, and its limits (calendar_spec_valid), each refusal in words. */

const USEC = 1_000_000;
const MIN_YEAR = 1970;
const MAX_YEAR = 2199;

/** Thrown by check(); the parser turns it into its answer. */
export class LimitRefusal extends Error {}

const refuse = (message: string): never => {
  throw new LimitRefusal(message);
};

function normalizeChain(items: Chain): Chain {
  if (items === null) return null;
  for (const item of items) {
    if (item.stop > item.start && item.repeat > 0) item.stop -= (item.stop - item.start) % item.repeat;
    // A range that cannot repeat even once (6..10/5, 22..22) is its first value alone.
    if ((item.stop > item.start && item.start + item.repeat > item.stop) || item.start === item.stop) {
      item.repeat = 0;
      item.stop = -1;
    }
  }
  const sorted = [...items].sort((a, b) => a.start - b.start || a.stop - b.stop || a.repeat - b.repeat);
  return sorted.filter((item, i) => i === 0 || item.start !== sorted[i - 1]!.start || item.stop !== sorted[i - 1]!.stop || item.repeat !== sorted[i - 1]!.repeat);
}

export function normalize(spec: CalendarSpec): void {
  if (spec.timezone !== null && spec.timezone === 'UTC') {
    spec.utc = true;
    spec.timezone = null;
  }
  if (spec.weekdays <= 0 || spec.weekdays >= 127) spec.weekdays = -1;
  if (spec.endOfMonth && !spec.day) spec.endOfMonth = false;
  for (const item of spec.year ?? []) {
    for (const key of ['start', 'stop'] as const) {
      if (item[key] >= 0 && item[key] < 70) item[key] += 2000;
      else if (item[key] >= 70 && item[key] < 100) item[key] += 1900;
    }
  }
  for (const key of ['year', 'month', 'day', 'hour', 'minute', 'microsecond'] as const) spec[key] = normalizeChain(spec[key]);
}

interface FieldLimits {
  name: string;
  unit: string;
  from: number;
  to: number;
  scale: number;
}

const LIMITS: Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'microsecond', FieldLimits> = {
  year: { name: 'year', unit: 'years', from: MIN_YEAR, to: MAX_YEAR, scale: 1 },
  month: { name: 'month', unit: 'months', from: 1, to: 12, scale: 1 },
  day: { name: 'day', unit: 'days of the month', from: 1, to: 31, scale: 1 },
  hour: { name: 'hour', unit: 'hours', from: 0, to: 23, scale: 1 },
  minute: { name: 'minute', unit: 'minutes', from: 0, to: 59, scale: 1 },
  microsecond: { name: 'second', unit: 'seconds', from: 0, to: 60 * USEC - 1, scale: USEC },
};

/** 1st, 2nd, 3rd, 11th, 22nd … */
export function ordinal(n: number): string {
  const suffix = n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

/** systemd's calendar_spec_valid, each refusal in words. */
export function check(spec: CalendarSpec): void {
  for (const key of ['year', 'month', 'day', 'hour', 'minute', 'microsecond'] as const) {
    const limits = LIMITS[key];
    const endOfMonth = key === 'day' && spec.endOfMonth;
    const show = (v: number) => String(v / limits.scale);
    for (const [index, item] of (spec[key] ?? []).entries()) {
      // systemd's chain_valid lowers the limit of "~" by 3 for each value of the (sorted) list,
      // as it passes the lowered limit on: ~01,25 is taken, ~01,26 is not.
      const to = endOfMonth ? limits.to - 3 * (index + 1) : limits.to;
      const last = key === 'microsecond' ? 59 : to;
      if (item.start < limits.from || item.start > to || (item.stop >= 0 && (item.stop < limits.from || item.stop > to))) {
        const bad = item.start < limits.from || item.start > to ? item.start : item.stop;
        if (endOfMonth && index === 0) refuse(`The day before the month's end is ${show(bad)}, but "~" counts at most 28 days back (~01 is the last day).`);
        if (endOfMonth) {
          refuse(`The day before the month's end is ${show(bad)}, but as the ${ordinal(index + 1)} value of a "~" list it may be at most ${to} (systemd allows 3 days fewer for each value before it).`);
        }
        refuse(`The ${limits.name} is ${show(bad)}, but ${limits.unit} go from ${limits.from} to ${last}.`);
      }
      if (item.repeat > to - limits.from) refuse(`The ${limits.name} repeats every ${show(item.repeat)}, more than ${limits.unit} span (${limits.from} to ${last}).`);
      const once = `The ${limits.name} ${show(item.start)}/${show(item.repeat)} never repeats`;
      if (item.stop >= 0) {
        if (item.start + item.repeat > item.stop) refuse(`The ${limits.name} range ${show(item.start)}..${show(item.stop)} runs backwards or repeats past its end: write the smaller value first.`);
      } else if (endOfMonth ? item.start - item.repeat < limits.from : item.start + item.repeat > to) {
        // "~07/2" counts towards the month's end (~07, ~05, ~03, ~01).
        if (item.repeat > 0) refuse(`${once}: its second run would be past ${endOfMonth ? "the month's last day (~01)" : last}.`);
      }
    }
  }
}
