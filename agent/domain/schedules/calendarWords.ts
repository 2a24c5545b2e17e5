import { ordinal } from './calendarLimits';
import type { CalendarSpec, Chain } from './calendarSpec';

/*
 * A calendar event as a person says it: "at 02:30 Europe/Paris, Monday through Friday",
 * "every 15 minutes (UTC)", "at 00:00 UTC, on the last day of the month". What reads badly in
 * words (a list of ranges with repetitions) is shown as systemd's own normalised form.
 */

const USEC = 1_000_000;
const MAX_LISTED = 6;
const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const pad = (n: number) => String(n).padStart(2, '0');

/** Every value of a chain within lo..hi, or null when there are more than `most`. */
function values(chain: Chain, lo: number, hi: number, most = MAX_LISTED): number[] | null {
  if (chain === null) return null;
  const found = new Set<number>();
  for (const item of chain) {
    const stop = item.stop >= 0 ? item.stop : item.repeat > 0 ? hi : item.start;
    for (let v = item.start; v <= stop; v += item.repeat || Number.POSITIVE_INFINITY) {
      if (v >= lo && v <= hi) found.add(v);
      if (found.size > most) return null;
    }
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * The days of a "~" chain, counted back from the month's end (1 the last day), or null when there
 * are more than `most`. Its repetitions run towards the end: ~07/2 is ~07, ~05, ~03 and ~01
 * (find_matching_component turns them into days and steps forward).
 */
function daysFromEnd(chain: Chain, most = MAX_LISTED): number[] | null {
  if (chain === null) return null;
  const found = new Set<number>();
  for (const item of chain) {
    const [top, bottom] = item.stop >= 0 ? [item.stop, item.start] : [item.start, item.repeat > 0 ? 1 : item.start];
    for (let v = top; v >= bottom; v -= item.repeat || Number.POSITIVE_INFINITY) {
      found.add(v);
      if (found.size > most) return null;
    }
  }
  return [...found].sort((a, b) => a - b);
}

/** A step from the field's first value to its end (0/15 over minutes): the step, else null. */
function everyStep(chain: Chain): number | null {
  if (chain === null) return 1;
  if (chain.length !== 1) return null;
  const [item] = chain;
  return item!.start === 0 && item!.stop < 0 && item!.repeat > 0 ? item!.repeat : null;
}

function list(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** A chain as systemd writes it in its normalised form (format_chain in calendarspec.c). */
function formatChain(chain: Chain, scale = 1): string {
  if (chain === null) return '*';
  // Seconds: a chain with a whole "every second" is "*".
  if (scale > 1 && chain.some((c) => c.start === 0 && c.stop < 0 && c.repeat === scale)) return '*';
  const fraction = (v: number) => (v % scale > 0 ? `.${String(v % scale).padStart(6, '0')}` : '');
  return chain
    .map((c) => {
      let text = pad(Math.floor(c.start / scale)) + fraction(c.start);
      if (c.stop > 0) text += `..${pad(Math.floor(c.stop / scale))}${fraction(c.stop)}`;
      if (c.repeat > 0 && !(c.stop > 0 && c.repeat === scale)) text += `/${Math.floor(c.repeat / scale)}`;
      return text + fraction(c.repeat);
    })
    .join(',');
}

function timeWords(spec: CalendarSpec): { words: string; clock: boolean } {
  const seconds = values(spec.microsecond, 0, 60 * USEC - 1);
  const wholeMinute = seconds !== null && seconds.length === 1 && seconds[0] === 0;
  if (!wholeMinute) {
    if (spec.hour === null && spec.minute === null && everyStep(spec.microsecond) !== null) {
      const step = everyStep(spec.microsecond)! / USEC;
      return { words: step === 1 ? 'every second' : `every ${step} seconds`, clock: false };
    }
    return { words: `at ${formatChain(spec.hour)}:${formatChain(spec.minute)}:${formatChain(spec.microsecond, USEC)}`, clock: true };
  }
  if (spec.hour === null) {
    const step = everyStep(spec.minute);
    if (step !== null) return { words: step === 1 ? 'every minute' : `every ${step} minutes`, clock: false };
    const minutes = values(spec.minute, 0, 59);
    if (minutes !== null) return { words: `every hour at minute ${list(minutes.map(String))}`, clock: false };
  }
  const hours = values(spec.hour, 0, 23);
  const minutes = values(spec.minute, 0, 59);
  if (hours !== null && minutes !== null && hours.length * minutes.length <= MAX_LISTED) {
    return { words: `at ${list(hours.flatMap((h) => minutes.map((m) => `${pad(h)}:${pad(m)}`)))}`, clock: true };
  }
  return { words: `at ${formatChain(spec.hour)}:${formatChain(spec.minute)}`, clock: true };
}

function weekdayWords(bits: number): string | null {
  if (bits < 0) return null;
  const days = DAY_NAMES.filter((_, i) => (bits & (1 << i)) !== 0);
  const first = DAY_NAMES.indexOf(days[0]!);
  const contiguous = days.length >= 3 && days.every((d, i) => DAY_NAMES.indexOf(d) === first + i);
  return contiguous ? `${days[0]} through ${days.at(-1)}` : `on ${list(days)}`;
}

function dateWords(spec: CalendarSpec): string | null {
  if (spec.year === null && spec.month === null && spec.day === null) return null;
  // One range of days (1..7: the first week, as with Sat *-*-1..7) reads as such.
  const only = spec.day?.length === 1 ? spec.day[0]! : null;
  const dayRange = only && !spec.endOfMonth && only.stop > only.start && only.repeat === 1 ? `on days ${only.start} to ${only.stop} of the month` : null;
  const days = dayRange ? [] : spec.endOfMonth ? daysFromEnd(spec.day) : values(spec.day, 1, 31);
  const months = values(spec.month, 1, 12, 12);
  const years = values(spec.year, 1970, 2199);
  if ((spec.day !== null && days === null) || (spec.month !== null && months === null) || (spec.year !== null && years === null)) {
    return `on dates ${formatChain(spec.year)}-${formatChain(spec.month)}${spec.endOfMonth ? '~' : '-'}${formatChain(spec.day)}`;
  }
  const parts: string[] = [];
  if (dayRange) parts.push(dayRange);
  else if (days !== null) {
    parts.push(
      spec.endOfMonth
        ? `on ${list(days.map((d) => (d === 1 ? 'the last day' : `the ${ordinal(d)} day from the end`)))} of the month`
        : `on the ${list(days.map(ordinal))}`,
    );
  }
  if (months !== null) parts.push(`${days === null ? 'every day ' : ''}in ${list(months.map((m) => MONTH_NAMES[m - 1]!))}`);
  if (years !== null) parts.push(`in ${list(years.map(String))}`);
  return parts.join(' ');
}

/** One calendar event in words, its zone (its own, or `zone`) after the clock time. */
export function calendarWords(spec: CalendarSpec, zone?: string): string {
  const time = timeWords(spec);
  const ownZone = spec.utc ? 'UTC' : (spec.timezone ?? zone);
  const first = ownZone ? (time.clock ? `${time.words} ${ownZone}` : `${time.words} (${ownZone})`) : time.words;
  return [first, weekdayWords(spec.weekdays), dateWords(spec)].filter((part) => part !== null).join(', ');
}
