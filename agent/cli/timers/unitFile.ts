import { MAX_MINUTES } from '../../domain/monitors/minutes';
import { checkSchedule } from '../../domain/schedules';

/*
 * Reading systemd unit files, pure (text in, data out): the [Timer] settings a monitor needs,
 * as systemd reads them (systemd.syntax(7), systemd.timer(5), systemd.time(7)).
 */

/** The settings of each section, in order; a key may repeat (OnCalendar= does). */
export type UnitSections = Map<string, Array<[key: string, value: string]>>;

/** Sections and settings: comments (# ;), blank lines, a trailing backslash joins the next line. */
export function parseUnitText(text: string): UnitSections {
  const sections: UnitSections = new Map();
  let current: Array<[string, string]> | null = null;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!.trimStart();
    if (line.trim() === '' || line.startsWith('#') || line.startsWith(';')) continue;
    // A backslash at the very end (not itself escaped by one before it) continues the line:
    // systemd puts a space for it and keeps the spaces on either side (so "12:00 \" then "UTC"
    // is "12:00  UTC", which it refuses).
    while (/(^|[^\\])(\\\\)*\\$/.test(line) && i + 1 < lines.length) {
      const next = lines[++i]!;
      // A comment line inside a continuation is skipped, as systemd does.
      if (/^\s*[#;]/.test(next)) continue;
      line = `${line.slice(0, -1)} ${next}`;
    }
    line = line.trim();
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      current = sections.get(header[1]!) ?? [];
      sections.set(header[1]!, current);
      continue;
    }
    const equals = line.indexOf('=');
    if (equals < 0 || current === null) continue;
    current.push([line.slice(0, equals).trim(), line.slice(equals + 1).trim()]);
  }
  return sections;
}

// systemd's units in its own order: each is taken as a prefix of what follows the number, the first that fits.
const SPAN_UNITS: Array<[string, number]> = [
  ['seconds', 1e6], ['second', 1e6], ['sec', 1e6], ['s', 1e6], ['minutes', 6e7], ['minute', 6e7], ['min', 6e7],
  ['months', 2_629_800e6], ['month', 2_629_800e6], ['M', 2_629_800e6], ['msec', 1e3], ['ms', 1e3], ['m', 6e7],
  ['hours', 3.6e9], ['hour', 3.6e9], ['hr', 3.6e9], ['h', 3.6e9], ['days', 8.64e10], ['day', 8.64e10], ['d', 8.64e10],
  ['weeks', 6.048e11], ['week', 6.048e11], ['w', 6.048e11], ['years', 31_557_600e6], ['year', 31_557_600e6], ['y', 31_557_600e6],
  ['usec', 1], ['us', 1], ['\u03bcs', 1], ['\u00b5s', 1],
];
const USEC_INFINITY = 2 ** 64 - 1;
const LLONG_MAX = 2 ** 63 - 1;
const WHITESPACE = /^[ \t\n\r]*/;

/**
 * A time span ("5min 20s", "1h30m", "90": seconds) in seconds, read as systemd's parse_sec()
 * reads it: a number without a unit is seconds wherever it stands ("1h30" is 3630), ".5s" and
 * "+5min" are taken, "infinity" is Infinity; null when systemd refuses it.
 */
export function timespanSeconds(text: string): number | null {
  let p = text.replace(WHITESPACE, '');
  if (p.startsWith('infinity')) return p.slice('infinity'.length).replace(WHITESPACE, '') === '' ? Infinity : null;
  let usec = 0;
  let something = false;
  for (;;) {
    p = p.replace(WHITESPACE, '');
    if (p === '') return something ? usec / 1e6 : null;
    // strtoll(): a sign, then digits; systemd refuses a minus (no "-0" either).
    const number = /^\+?(\d*)/.exec(p)!;
    if (p.startsWith('-')) return null;
    const digits = number[1]!;
    let rest = p.slice(number[0].length);
    if (digits === '' && !(number[0] === '' && rest.startsWith('.'))) return null;
    const whole = Number(digits || '0');
    if (whole > LLONG_MAX) return null;
    let fraction = '';
    if (rest.startsWith('.')) {
      fraction = /^\d*/.exec(rest.slice(1))![0];
      // "3." and "3.sec" are refused: a point needs a digit after it.
      if (fraction === '') return null;
      rest = rest.slice(1 + fraction.length);
    }
    const afterSpace = rest.replace(WHITESPACE, '');
    const unit = SPAN_UNITS.find(([name]) => afterSpace.startsWith(name));
    // No unit right after the number: seconds, but only before a space or the end ("12.34.56" is refused).
    if (!unit && afterSpace === rest && rest !== '') return null;
    const multiplier = unit?.[1] ?? 1e6;
    p = unit ? afterSpace.slice(unit[0].length) : afterSpace;
    if (whole >= USEC_INFINITY / multiplier) return null;
    usec += whole * multiplier;
    // Each decimal adds its digit times a tenth of the one before, in whole microseconds.
    let step = Math.floor(multiplier / 10);
    for (const digit of fraction) {
      usec += Number(digit) * step;
      step = Math.floor(step / 10);
    }
    if (usec >= USEC_INFINITY) return null;
    something = true;
  }
}

/** Whole seconds as a period's units, largest first: 5400 → "1h30m". */
export function periodOf(seconds: number): string {
  let rest = Math.max(1, Math.round(seconds));
  let text = '';
  for (const [unit, size] of [['d', 86_400], ['h', 3600], ['m', 60], ['s', 1]] as const) {
    if (rest >= size) {
      text += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  return `@every ${text}`;
}

export interface TimerSettings {
  /** The timer's name, `backup.timer`, `fsck@dev-sda1.timer`. */
  name: string;
  /** What a monitor takes as `schedule`: the OnCalendar= events one a line, or a period; null when none. */
  schedule: string | null;
  /** Why the timer cannot be monitored (no schedule to expect runs by); null when it can. */
  unmonitorable: string | null;
  randomizedDelaySec: number;
  /** systemd's default is one minute. */
  accuracySec: number;
  persistent: boolean;
  /** The unit the timer starts: Unit=, else the timer's own name as a .service. */
  service: string;
  /** The OnCalendar= lines systemd refuses and skips (`OnCalendar=X`), the others still elapse. */
  ignored: string[];
}

const DEFAULT_ACCURACY_SEC = 60;

/**
 * A timer's settings from its text (the unit file then its drop-ins, in order): an empty
 * assignment (`OnCalendar=`) clears the list before it, as in systemd.
 */
export function timerSettings(name: string, text: string): TimerSettings {
  const settings = parseUnitText(text).get('Timer') ?? [];
  const calendars: string[] = [];
  const ignored: Array<{ line: string; why: string }> = [];
  const repeats: number[] = [];
  let boots = 0;
  let randomizedDelaySec = 0;
  let accuracySec = DEFAULT_ACCURACY_SEC;
  let persistent = false;
  let unit: string | null = null;
  for (const [key, value] of settings) {
    if (key === 'OnCalendar') {
      // systemd skips a line it cannot read (and says so in its log); the timer elapses by the others.
      const why = value === '' ? undefined : checkSchedule(`OnCalendar=${value}`).error;
      if (value === '') calendars.length = ignored.length = 0;
      else if (why === undefined) calendars.push(checkSchedule(`OnCalendar=${value}`).schedule!);
      else ignored.push({ line: `OnCalendar=${value}`, why });
    } else if (key === 'OnUnitActiveSec' || key === 'OnUnitInactiveSec') {
      const seconds = timespanSeconds(value);
      if (value === '') repeats.length = 0;
      // infinity: it never elapses by this one.
      else if (seconds !== null && seconds > 0 && seconds !== Infinity) repeats.push(seconds);
    } else if (key === 'OnBootSec' || key === 'OnStartupSec' || key === 'OnActiveSec') {
      if (value !== '') boots++;
    } else if (key === 'RandomizedDelaySec') {
      // A span systemd cannot read is ignored there: the setting keeps what it had.
      randomizedDelaySec = value === '' ? 0 : (timespanSeconds(value) ?? randomizedDelaySec);
    } else if (key === 'AccuracySec') {
      accuracySec = value === '' ? DEFAULT_ACCURACY_SEC : (timespanSeconds(value) ?? accuracySec);
    } else if (key === 'Persistent') {
      persistent = /^(1|yes|y|true|t|on)$/i.test(value);
    } else if (key === 'Unit') {
      unit = value === '' ? null : value;
    }
  }
  let schedule: string | null = null;
  let unmonitorable: string | null = null;
  if (calendars.length > 0 && repeats.length > 0 && boots === 0) {
    // After a reboot OnUnitActiveSec= has no run to count from until the calendar's next one.
    unmonitorable = 'it has both OnCalendar= and OnUnitActiveSec=/OnUnitInactiveSec=, and no OnBootSec=: after a reboot it waits for the calendar, which one schedule cannot say';
  } else if (repeats.length > 0) {
    // Several repeats: the timer elapses by the shortest. A run after boot starts the count, so a
    // run comes at most one period after the last; the calendar's runs only add to them.
    schedule = periodOf(Math.min(...repeats));
  } else if (calendars.length > 0) {
    schedule = calendars.join('\n');
  } else if (ignored.length > 0 && boots === 0) {
    unmonitorable = `systemd refuses every OnCalendar= of it (${ignored[0]!.line}: ${ignored[0]!.why}), so it does not load`;
  } else {
    unmonitorable = boots > 0 ? 'it elapses once after boot or start, not again: no run to expect' : 'it has no OnCalendar= or OnUnitActiveSec=';
  }
  return { name, schedule, unmonitorable, randomizedDelaySec, accuracySec, persistent, service: unit ?? serviceOf(name), ignored: ignored.map(({ line }) => line) };
}

/** `NAME.timer` → `NAME.service` (instances keep their instance). */
export function serviceOf(timer: string): string {
  return `${timer.replace(/\.timer$/, '')}.service`;
}

/** The template a unit instance comes from (`fsck@sda1.timer` → `fsck@.timer`); null when it is no instance. */
export function templateOf(unit: string): string | null {
  const match = /^([^@]+)@(.+)(\.[a-z]+)$/.exec(unit);
  return match ? `${match[1]}@${match[3]}` : null;
}

/** `%i` / `%I` / `%n` / `%N` / `%p` / `%%` in Unit= of an instance, the few specifiers a timer's Unit= uses. */
export function withSpecifiers(value: string, unit: string): string {
  const match = /^([^@]+)@(.*)\.[a-z]+$/.exec(unit);
  const prefix = match?.[1] ?? unit.replace(/\.[a-z]+$/, '');
  const instance = match?.[2] ?? '';
  return value.replace(/%([%iInNpP])/g, (_, letter: string) => {
    if (letter === '%') return '%';
    if (letter === 'i') return instance;
    if (letter === 'I') return unescapeUnitName(instance);
    if (letter === 'n') return unit;
    if (letter === 'N') return unit.replace(/\.[a-z]+$/, '');
    return prefix;
  });
}

/** systemd's unit-name escapes undone: `\x2d` → `-`, `-` → `/` (systemd-escape --unescape). */
export function unescapeUnitName(text: string): string {
  return text.replace(/-/g, '/').replace(/\\x([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A tag for the timer (`timer:NAME`), in the characters a tag takes, at most 50. */
export function timerTag(timer: string): string {
  const readable = timer.replace(/\.timer$/, '').replace(/\\x([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return `timer:${readable.replace(/[^A-Za-z0-9_.:-]/g, '_')}`.slice(0, 50).toLowerCase();
}

/** The grace in minutes: the schedule's own (or the one asked), plus the delays systemd may add to a run. */
export function timerGrace(base: number, timer: Pick<TimerSettings, 'randomizedDelaySec' | 'accuracySec'>): number {
  return Math.min(MAX_MINUTES, base + Math.ceil((timer.randomizedDelaySec + timer.accuracySec) / 60));
}
