import { MAX_MINUTES } from '../../domain/monitors/minutes';

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
    let line = lines[i]!.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    while (line.endsWith('\\') && i + 1 < lines.length) {
      const next = lines[++i]!;
      // A comment line inside a continuation is skipped, as systemd does.
      if (/^\s*[#;]/.test(next)) continue;
      line = `${line.slice(0, -1).trimEnd()} ${next.trim()}`;
    }
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

const SPAN_UNITS: Array<[RegExp, number]> = [
  [/^(us|usec|µs|μs)$/, 1e-6],
  [/^(ms|msec)$/, 1e-3],
  [/^(s|sec|second|seconds)$/, 1],
  [/^(m|min|minute|minutes)$/, 60],
  [/^(h|hr|hour|hours)$/, 3600],
  [/^(d|day|days)$/, 86_400],
  [/^(w|week|weeks)$/, 604_800],
  [/^(M|month|months)$/, 2_629_800],
  [/^(y|year|years)$/, 31_557_600],
];

/** A time span ("5min 20s", "1h30m", "90": seconds) in seconds; null when it is not one. */
export function timespanSeconds(text: string): number | null {
  const body = text.trim();
  if (body === '') return null;
  if (/^\d+(\.\d+)?$/.test(body)) return Number(body);
  let total = 0;
  let rest = body;
  while (rest !== '') {
    const match = /^(\d+(?:\.\d+)?)\s*([a-zA-Zµμ]+)\s*/.exec(rest);
    if (!match) return null;
    const unit = SPAN_UNITS.find(([pattern]) => pattern.test(match[2]!));
    if (!unit) return null;
    total += Number(match[1]) * unit[1];
    rest = rest.slice(match[0].length);
  }
  return total;
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
}

const DEFAULT_ACCURACY_SEC = 60;

/**
 * A timer's settings from its text (the unit file then its drop-ins, in order): an empty
 * assignment (`OnCalendar=`) clears the list before it, as in systemd.
 */
export function timerSettings(name: string, text: string): TimerSettings {
  const settings = parseUnitText(text).get('Timer') ?? [];
  const calendars: string[] = [];
  const repeats: number[] = [];
  let boots = 0;
  let randomizedDelaySec = 0;
  let accuracySec = DEFAULT_ACCURACY_SEC;
  let persistent = false;
  let unit: string | null = null;
  for (const [key, value] of settings) {
    if (key === 'OnCalendar') {
      if (value === '') calendars.length = 0;
      else calendars.push(value);
    } else if (key === 'OnUnitActiveSec' || key === 'OnUnitInactiveSec') {
      const seconds = timespanSeconds(value);
      if (value === '') repeats.length = 0;
      else if (seconds !== null && seconds > 0) repeats.push(seconds);
    } else if (key === 'OnBootSec' || key === 'OnStartupSec' || key === 'OnActiveSec') {
      if (value !== '') boots++;
    } else if (key === 'RandomizedDelaySec') {
      randomizedDelaySec = timespanSeconds(value) ?? 0;
    } else if (key === 'AccuracySec') {
      accuracySec = value === '' ? DEFAULT_ACCURACY_SEC : (timespanSeconds(value) ?? DEFAULT_ACCURACY_SEC);
    } else if (key === 'Persistent') {
      persistent = /^(1|yes|y|true|t|on)$/i.test(value);
    } else if (key === 'Unit') {
      unit = value === '' ? null : value;
    }
  }
  let schedule: string | null = null;
  let unmonitorable: string | null = null;
  if (calendars.length > 0 && repeats.length > 0) {
    unmonitorable = 'it has both OnCalendar= and OnUnitActiveSec=/OnUnitInactiveSec=, which one schedule cannot say';
  } else if (calendars.length > 0) {
    schedule = calendars.join('\n');
  } else if (repeats.length > 0) {
    // Several repeats: the timer elapses by the shortest.
    schedule = periodOf(Math.min(...repeats));
  } else {
    unmonitorable = boots > 0 ? 'it elapses once after boot or start, not again: no run to expect' : 'it has no OnCalendar= or OnUnitActiveSec=';
  }
  return { name, schedule, unmonitorable, randomizedDelaySec, accuracySec, persistent, service: unit ?? serviceOf(name) };
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
