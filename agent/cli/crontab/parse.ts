import { checkSchedule, CRON_MACROS } from '../../domain/schedules';

/**
 * A pure crontab parser. User crontabs (`crontab -l`) have five schedule fields then the
 * command; system ones (/etc/crontab, /etc/cron.d/*) have a user column before the command.
 */
export type CrontabFormat = 'user' | 'system';

/** A cron job line, with everything needed to monitor it and to rewrite it in place. */
export interface CronJob {
  kind: 'job';
  /** 1-based line number in the file. */
  line: number;
  raw: string;
  /** The five-field schedule; a macro such as @daily is translated. Empty for @reboot. */
  schedule: string;
  /** The schedule as written: the fields, or the macro. */
  written: string;
  /** The user column of a system crontab; null in a user crontab. */
  user: string | null;
  /** The command text as written (with any % and \%), from `commandStart` to the end of the line. */
  command: string;
  commandStart: number;
  /** What the shell runs: the command up to the first unescaped %, with \% turned into %. */
  shellCommand: string;
  /** What cron feeds to the command's stdin: the text after the first %, with % as newlines. */
  stdin: string | null;
  /** CRON_TZ (or TZ) in effect for this line; null when none is set. */
  timezone: string | null;
  /** SHELL in effect for this line; null for cron's default /bin/sh. */
  shell: string | null;
  /** Null when the job can be monitored; otherwise why not. */
  unmonitorable: string | null;
}

export type CrontabLine =
  | CronJob
  | { kind: 'env'; line: number; raw: string; name: string; value: string }
  | { kind: 'comment' | 'blank'; line: number; raw: string }
  | { kind: 'invalid'; line: number; raw: string; reason: string };

/** Macros as cron defines them, as five fields. @reboot has none: it runs at boot only. */
export const MACROS: Record<string, string | null> = { ...CRON_MACROS, '@reboot': null };

const ENV_LINE = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/;
// Cron parts a job line at spaces and tabs alone (Skip_Blanks in entry.c): a no-break space pasted
// from a web page is part of a field there, which cron then refuses, so it is no separator here either.
const FIELDS_LINE = /^([ \t]*([^ \t]+)[ \t]+([^ \t]+)[ \t]+([^ \t]+)[ \t]+([^ \t]+)[ \t]+([^ \t]+)[ \t]+)([\s\S]*)$/;
const MACRO_LINE = /^([ \t]*(@[A-Za-z]+)[ \t]+)([\s\S]*)$/;

/** Parses every line of a crontab; never throws. */
export function parseCrontab(text: string, format: CrontabFormat): CrontabLine[] {
  const env: EnvInEffect = { timezone: null, shell: null, cronTzSet: false };
  const raws = text.split('\n');
  return raws.map((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '') return { kind: 'blank', line, raw };
    if (trimmed.startsWith('#')) return { kind: 'comment', line, raw };
    const assignment = ENV_LINE.exec(raw);
    if (assignment) {
      const [, name, quoted] = assignment;
      const value = unquote(quoted);
      // CRON_TZ is cron's zone for the lines below; TZ counts only where no CRON_TZ was set.
      if (name === 'CRON_TZ') {
        env.timezone = value || null;
        env.cronTzSet = true;
      } else if (name === 'TZ' && !env.cronTzSet) {
        env.timezone = value || null;
      }
      if (name === 'SHELL') env.shell = value || null;
      return { kind: 'env', line, raw, name, value };
    }
    const parsed = parseJob(raw, line, format, env);
    if (parsed.kind === 'job' && !parsed.unmonitorable) parsed.unmonitorable = unreadByCron(raw, index === raws.length - 1);
    return parsed;
  });
}

/**
 * Why cron does not run a job line as it looks, so wrapping it would change it; null when it does.
 * Cron reads a command up to the newline: a carriage return before it (a file with Windows line
 * ends) is part of the command, and a last line without a newline is not read at all.
 */
function unreadByCron(raw: string, last: boolean): string | null {
  if (last) return 'the last line has no newline at its end, so cron never reads it';
  if (raw.endsWith('\r')) return 'the line ends in a carriage return (Windows line ends), which cron passes to the shell as part of the command';
  return null;
}

interface EnvInEffect {
  timezone: string | null;
  shell: string | null;
  cronTzSet: boolean;
}

/**
 * cronie reads a "-" right before the schedule as "run this job without logging it" (root's lines);
 * Debian's cron refuses the line. A job to watch, then (planted so, it would hide from cron's log),
 * but not one to rewrite, since whether it runs at all depends on which cron reads it.
 */
const NO_LOG = /^[ \t]*-(?=[^ \t])/;

function parseJob(raw: string, line: number, format: CrontabFormat, env: EnvInEffect): CrontabLine {
  const noLog = NO_LOG.exec(raw);
  const parsed = parseSchedule(noLog ? raw.slice(0, noLog[0].length - 1) + raw.slice(noLog[0].length) : raw, line, format, env);
  if (!noLog || parsed.kind !== 'job') return { ...parsed, raw };
  return {
    ...parsed,
    raw,
    written: `-${parsed.written}`,
    commandStart: parsed.commandStart + 1,
    unmonitorable: parsed.unmonitorable ?? `the "-" before its schedule (run without logging) is read by cronie alone: Debian's cron skips the line`,
  };
}

function parseSchedule(raw: string, line: number, format: CrontabFormat, env: EnvInEffect): CrontabLine {
  const macro = MACRO_LINE.exec(raw);
  let written: string;
  let schedule: string;
  let rest: string;
  let restStart: number;
  let unmonitorable: string | null = null;
  if (macro) {
    const [, prefix, name, after] = macro;
    const translated = MACROS[name];
    if (translated === undefined) {
      // Every cron compares a macro's name as written (strcmp): "@DAILY" is none, and the line never runs.
      const lower = name.toLowerCase();
      if (MACROS[lower] !== undefined) return { kind: 'invalid', line, raw, reason: `cron has no macro "${name}" (its macros are in lower case: ${lower}), so it skips this line` };
      return { kind: 'invalid', line, raw, reason: `unknown macro ${name}` };
    }
    written = name;
    schedule = translated ?? '';
    if (translated === null) unmonitorable = '@reboot runs only when the machine starts';
    rest = after;
    restStart = prefix.length;
  } else {
    const fields = FIELDS_LINE.exec(raw);
    // Where a reader would see the five fields: up to the blank after the fifth word.
    const spaced = oddSpaceIn(fields ? fields[1] : /^\s*(?:\S+\s+){0,5}/.exec(raw)![0]);
    if (spaced) return { kind: 'invalid', line, raw, reason: spaced };
    if (!fields) return { kind: 'invalid', line, raw, reason: 'not a cron line: five schedule fields and a command expected' };
    const [, prefix, ...parts] = fields;
    written = parts.slice(0, 5).join(' ');
    schedule = written;
    const checked = checkSchedule(schedule);
    if (checked.error !== undefined) return { kind: 'invalid', line, raw, reason: `schedule "${schedule}": ${checked.error}` };
    rest = parts[5];
    restStart = prefix.length;
  }

  let user: string | null = null;
  if (format === 'system') {
    const userColumn = /^([^ \t]+)([ \t]+)/.exec(rest);
    if (!userColumn) return { kind: 'invalid', line, raw, reason: 'a user column and a command expected' };
    user = userColumn[1];
    restStart += userColumn[0].length;
    rest = rest.slice(userColumn[0].length);
  }
  if (rest.trim() === '') return { kind: 'invalid', line, raw, reason: 'the command is missing' };
  const { shellCommand, stdin } = splitPercent(rest);
  return {
    kind: 'job',
    line,
    raw,
    schedule,
    written,
    user,
    command: rest,
    commandStart: restStart,
    shellCommand,
    stdin,
    timezone: env.timezone,
    shell: env.shell,
    unmonitorable,
  };
}

/**
 * Cron's rule for %: the first unescaped % ends the command and the rest becomes its stdin,
 * where every other unescaped % is a newline; \% is a literal % in both parts. As in cron's own
 * loop (do_command.c), a backslash takes the character after it whatever it is, so in \\% the
 * backslashes pair up and the % ends the command.
 */
export function splitPercent(command: string): { shellCommand: string; stdin: string | null } {
  let shellCommand = '';
  let index = 0;
  for (; index < command.length; index++) {
    const char = command[index];
    if (char === '\\' && index + 1 < command.length) {
      shellCommand += command[index + 1] === '%' ? '%' : command.slice(index, index + 2);
      index++;
    } else if (char === '%') {
      break;
    } else {
      shellCommand += char;
    }
  }
  if (index >= command.length) return { shellCommand, stdin: null };
  const stdin = command
    .slice(index + 1)
    .replace(/\\%|%/g, (match) => (match === '%' ? '\n' : '%'));
  return { shellCommand, stdin };
}

/** The raw command up to its first unescaped %, and the rest from that % on (empty if none). */
export function splitRawAtPercent(command: string): { head: string; tail: string } {
  for (let index = 0; index < command.length; index++) {
    if (command[index] === '\\') index++;
    else if (command[index] === '%') return { head: command.slice(0, index), tail: command.slice(index) };
  }
  return { head: command, tail: '' };
}

/** Why cron refuses a schedule with a space other than a space or a tab in it (a no-break space pasted from a web page); undefined without one. */
function oddSpaceIn(text: string): string | undefined {
  const odd = /[^ \t\S]/.exec(text.replace(/\r$/, ''))?.[0];
  if (odd === undefined) return undefined;
  const code = `U+${odd.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  return `the schedule has ${odd === '\u00a0' ? `a no-break space (${code})` : code} where cron parts fields at spaces and tabs only, so cron refuses the line`;
}

function unquote(value: string): string {
  const match = /^(['"])(.*)\1$/.exec(value);
  return match ? match[2] : value;
}

/** The job lines of a parsed crontab. */
export function jobsOf(lines: CrontabLine[]): CronJob[] {
  return lines.filter((line): line is CronJob => line.kind === 'job');
}
