import { CronExpressionParser } from 'cron-parser';
import { firstRunDay } from './cronDays';
import { parserText } from './cronParserText';
import type { ScheduleCheck } from './types';

/**
 * The check of a cron schedule as a user types it (index.ts routes each kind to its own): a
 * cron macro becomes its five fields (the interface stores five fields), anything else must be
 * five fields cron can run, and a mistake is explained in words that name the field, not in
 * cron-parser's "Constraint error, got value 25".
 */

/** Cron's macros as five fields. @reboot is not here: it has no time to expect a run at. */
export const CRON_MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

interface FieldRule {
  name: string;
  unit: string;
  min: number;
  max: number;
  names?: readonly string[];
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const FIELDS: readonly FieldRule[] = [
  { name: 'minute', unit: 'minutes', min: 0, max: 59 },
  { name: 'hour', unit: 'hours', min: 0, max: 23 },
  { name: 'day-of-month', unit: 'days of the month', min: 1, max: 31 },
  { name: 'month', unit: 'months', min: 1, max: 12, names: MONTHS },
  // 7 is Sunday too, as in every cron.
  { name: 'day-of-week', unit: 'days of the week', min: 0, max: 7, names: DAYS },
];


/** The schedule to store, or why it cannot be one, in words. */
export function checkCron(input: string): ScheduleCheck {
  const text = input.trim();
  if (text.startsWith('@')) return checkMacro(text);
  const fields = text.split(/\s+/);
  if (fields.length !== 5) {
    return {
      error: `A schedule has five fields (minute, hour, day-of-month, month, day-of-week); this one has ${fields.length}.`,
    };
  }
  for (const [index, field] of fields.entries()) {
    const problem = fieldProblem(field, FIELDS[index]!);
    if (problem) return { error: problem };
  }
  const schedule = fields.join(' ');
  const parserProblem = cronParserProblem(schedule);
  return parserProblem ? { error: parserProblem } : { schedule };
}

function checkMacro(text: string): ScheduleCheck {
  const macro = text.toLowerCase();
  const schedule = CRON_MACROS[macro];
  if (schedule) return { schedule };
  if (macro === '@reboot') return { error: '@reboot runs only when the machine starts, so there is no time to expect a run at.' };
  return { error: `"${text}" is not a cron macro: use @hourly, @daily, @weekly, @monthly or @yearly, or @every 90m for a period.` };
}

/** Why one field is wrong, or undefined when it is fine (or left to cron-parser). */
function fieldProblem(field: string, rule: FieldRule): string | undefined {
  if (/h/i.test(field) && !rule.names?.some((name) => field.toLowerCase().includes(name))) {
    // Jenkins' H picks a hashed (and in cron-parser, random) value: the due time would move at every parse.
    return `The ${rule.name} field has "H": a five-field cron has no H. Write the ${rule.name} itself, such as ${rule.min === 0 ? 17 : rule.min}.`;
  }
  for (const part of field.split(',')) {
    const problem = partProblem(part, rule);
    if (problem) return problem;
  }
  return undefined;
}

const PART = /^(\*|[a-z0-9]+(?:-[a-z0-9]+)?)(?:\/(\d+))?$/i;

function partProblem(part: string, rule: FieldRule): string | undefined {
  if (part === '') return `The ${rule.name} field has an empty item in its list.`;
  const match = PART.exec(part);
  // L, W, # and ? are left to cron-parser, which says whether it knows them.
  if (!match) return undefined;
  const [, range, step] = match;
  if (step !== undefined && Number(step) === 0) return `The ${rule.name} field "${part}" steps by 0; a step is 1 or more.`;
  if (range === '*') return undefined;
  if (step !== undefined && !range!.includes('-')) {
    // cron steps a range or *, never a single value: Debian's cron reads "5/20" as 5 alone (it skips
    // the rest of the item), cronie refuses it, cron-parser ran it every 20 from 5. Said, not guessed.
    const max = rule.names === MONTHS ? 12 : rule.max === 7 ? 6 : rule.max;
    return `The ${rule.name} field "${part}" steps a single value, which cron does not do (Debian's cron runs it at ${range} alone): write ${range}-${max}/${step} to repeat from ${range}, or ${range} for once.`;
  }
  const [from, to] = range!.split('-').map((value) => valueOf(value, rule));
  for (const [raw, value] of [
    [range!.split('-')[0], from],
    [range!.split('-')[1], to],
  ] as const) {
    if (raw === undefined) continue;
    if (value === undefined) return `The ${rule.name} field has "${raw}", which is not a number${rule.names ? ' or a name such as ' + rule.names[1] : ''}.`;
    if (value < rule.min || value > rule.max) {
      return `The ${rule.name} field is ${raw}, but ${rule.unit} go from ${rule.min} to ${rule.max}.`;
    }
  }
  if (to !== undefined && from! > to) {
    return `The ${rule.name} range ${range} runs backwards: write the smaller value first, or two ranges such as ${range!.split('-')[0]}-${rule.max},${rule.min}-${range!.split('-')[1]}.`;
  }
  return undefined;
}

function valueOf(raw: string, rule: FieldRule): number | undefined {
  if (/^\d+$/.test(raw)) return Number(raw);
  const index = rule.names?.indexOf(raw.toLowerCase()) ?? -1;
  if (index < 0) return undefined;
  return rule.names === MONTHS ? index + 1 : index;
}

/** What remains for cron-parser to refuse: days that never come, letters it does not know. */
function cronParserProblem(schedule: string): string | undefined {
  try {
    CronExpressionParser.parse(parserText(schedule), { tz: 'UTC', currentDate: new Date(0) });
    // Whether a day ever comes by date arithmetic, not cron-parser's walk (seconds for a rare schedule).
    if (firstRunDay(schedule, 0) === null) throw new Error('no day of month comes');
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (/day of month/i.test(message)) return `The day-of-month and month fields name a date that never comes (such as 30 February).`;
    return `"${schedule}" is not a cron expression: use numbers, names (mon, jan), ranges (1-5), lists (1,3) and steps (*/15).`;
  }
}
