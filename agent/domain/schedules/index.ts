import { longestGapMinutes as cronLongestGapMinutes, shortestGapMinutes as cronShortestGapMinutes } from './cronDays';
import { nextRunAfter as cronNextRunAfter, previousRunBefore as cronPreviousRunBefore } from './cronSchedule';
import { remembered } from '../time/answerCache';
import { offsetSwitchesBetween, utcOffsetMs } from '../time/zoneOffsets';
import { rememberedRuns } from './runCache';
import { calendarNextRuns, checkCalendar } from './calendar';
import { CALENDAR_SHORTHANDS, type CalendarSpec } from './calendarSpec';
import { calendarWords } from './calendarWords';
import { checkCron } from './cronCheck';
import { cronWords } from './cronWords';
import { checkPeriod, periodMs, periodWords } from './period';
import type { ScheduleCheck, ScheduleKind } from './types';

/*
 * The one door to a schedule, whatever its kind: cron ("30 2 * * 1-5", @daily), a systemd
 * calendar event ("Mon..Fri 02:30", several one a line) or a period ("@every 90m"). The kind is
 * told by the text alone (kindOf), so the field stays one; callers ask for a check, the next
 * or last run, or words, and never branch on the kind themselves.
 */

export type { ScheduleCheck, ScheduleKind } from './types';
export { CRON_MACROS } from './cronCheck';

// A date, whole or half-written (2026-03-08, *-*~01, 2026-03-): its refusal is the calendar's.
const DATE = /^[\d*.,/]+[-~][\d*.,/~-]*$/;
const WEEKDAY = /^(mon|tue|wed|thu|fri|sat|sun)/i;

/** Which kind a schedule's text is: no second field is needed. */
export function kindOf(text: string): ScheduleKind {
  return rememberedKind(text);
}

// Every pulse asks four times, of the same few schedules: five regular expressions each time were a tenth of its schedule work.
const rememberedKind = remembered(10_000, (text: string) => text, kindOfText);

function kindOfText(text: string): ScheduleKind {
  const trimmed = text.trim();
  if (/^@every\b/i.test(trimmed)) return 'period';
  if (/^@ *[+-]?\d/.test(trimmed)) return 'calendar';
  if (trimmed.startsWith('@')) return 'cron';
  // Cron has neither times (02:30), nor "~" nor "..", nor several lines.
  if (/[:~\n]|\.\./.test(trimmed)) return 'calendar';
  const fields = trimmed.split(/\s+/);
  if (CALENDAR_SHORTHANDS.includes(fields[0]!.toLowerCase()) || WEEKDAY.test(fields[0]!)) return 'calendar';
  // A field that is "*" alone is cron's (a calendar event never has one): "1-5 * * *" is cron short of a field.
  if (fields.length < 5 && !fields.includes('*') && fields.some((field) => DATE.test(field))) return 'calendar';
  return 'cron';
}

const EMPTY = 'Enter a schedule: a cron expression such as "0 2 * * *" or @daily, a calendar event such as "Mon..Fri 09:00", or a period such as "@every 90m".';

/**
 * A timer's lines pasted as they stand in its unit (`OnCalendar=Mon..Fri 02:30`, one or more):
 * the events without the key; null when not every line has it. An empty `OnCalendar=`, which
 * clears the list in a unit, adds nothing.
 */
function eventsOfTimerLines(input: string): string | null {
  const lines = input.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
  if (lines.length === 0 || !lines.every((line) => /^OnCalendar\s*=/i.test(line))) return null;
  return lines.map((line) => line.replace(/^OnCalendar\s*=\s*/i, '')).filter((event) => event !== '').join('\n');
}

/** Words systemd takes as a timestamp, never as a calendar event. */
const MOMENTS = /^(now|today|tomorrow|yesterday)$/i;

/** The schedule to store, or why it cannot be one, in words that name the part that is wrong. */
export function checkSchedule(input: string): ScheduleCheck {
  if (input.trim() === '') return { error: EMPTY };
  if (MOMENTS.test(input.trim())) {
    return { error: `"${input.trim()}" is a moment, not a schedule: systemd refuses it in OnCalendar= too. Write when the job runs, such as "daily", "*-*-* 09:00" or "Mon..Fri 09:00".` };
  }
  const events = eventsOfTimerLines(input);
  if (events !== null) return checkCalendarSchedule(events);
  const kind = kindOf(input);
  if (kind === 'period') return checkPeriod(input);
  if (kind === 'cron') return checkCron(input);
  return checkCalendarSchedule(input);
}

function checkCalendarSchedule(input: string): ScheduleCheck {
  const checked = checkCalendar(input);
  return checked.error !== undefined ? { error: checked.error } : { schedule: checked.lines.join('\n') };
}

const calendars = new Map<string, CalendarSpec[] | null>();

/** A stored calendar schedule read once (a list of thousands of monitors repeats a few). */
function calendarOf(schedule: string): CalendarSpec[] | null {
  let specs = calendars.get(schedule);
  if (specs === undefined) {
    const checked = checkCalendar(schedule, true);
    specs = checked.error === undefined ? checked.specs : null;
    if (calendars.size >= 10_000) calendars.clear();
    calendars.set(schedule, specs);
  }
  return specs;
}

/** The next `limit` runs after `afterMs`, earliest first; fewer when the schedule ends, none when it is not one. */
export function nextRuns(schedule: string, timezone: string, afterMs: number, limit: number): number[] {
  const kind = kindOf(schedule);
  const runs: number[] = [];
  if (kind === 'calendar') return calendarOf(schedule) === null ? [] : calendarNextRuns(calendarOf(schedule)!, timezone, afterMs, limit);
  for (let at: number | null = afterMs; runs.length < limit; ) {
    at = nextRunAfter(schedule, timezone, at);
    if (at === null) break;
    runs.push(at);
  }
  return runs;
}

/**
 * "No run after t" holds for every later t, and "none before t" for every earlier one: a calendar
 * event that never comes again (a one-off date gone by, 30 February) is searched once, not at
 * every pulse (its search runs to systemd's horizon, the year 2199: a few hundred milliseconds).
 */
function rememberingNone(end: 'after' | 'before', compute: (schedule: string, timezone: string, at: number) => number | null) {
  const none = new Map<string, number>();
  return (schedule: string, timezone: string, at: number): number | null => {
    const key = `${schedule}\n${timezone}`;
    const known = none.get(key);
    if (known !== undefined && (end === 'after' ? at >= known : at <= known)) return null;
    const run = compute(schedule, timezone, at);
    if (run === null) {
      if (none.size >= 10_000) none.clear();
      none.set(key, known === undefined ? at : end === 'after' ? Math.min(known, at) : Math.max(known, at));
    }
    return run;
  };
}

const rememberedCalendarNext = rememberingNone('after', rememberedRuns('to', (schedule, timezone, at) => nextRuns(schedule, timezone, at, 1)[0] ?? null));
const rememberedCalendarPrevious = rememberingNone('before', rememberedRuns('from', calendarPreviousRun));

/** Longest look back for the last run of a calendar event: systemd's own horizon is the year 2199. */
const MAX_LOOK_BACK_MS = 9 * 366 * 86_400_000;

/** Runs walked one at a time before the rest is halved (about 40 searches): an event may run every millisecond of a day. */
const MAX_WALKED_RUNS = 32;

/**
 * The last run strictly before `beforeMs`: systemd has no such search, so it is found forwards (the
 * runs from a moment before, the last one still before), looking back twice as far each time. Bounded:
 * one search for any run in nine years, about 28 more, 32 runs walked, then halving (about 40).
 */
function calendarPreviousRun(schedule: string, timezone: string, beforeMs: number): number | null {
  const run = searchPreviousRun(schedule, timezone, beforeMs);
  const firstCopy = run === null ? null : repeatStart(run, timezone);
  if (firstCopy === null) return run;
  // A search begun inside an hour the clocks repeat (a fall-back night) meets the second copy of a
  // time, at which a timer that ran through the night never elapses: it elapsed at the first and
  // searched on from there, and the wall clock never goes back. So the timer's own runs are
  // walked from before the first copy, where a search goes as systemd's does.
  const next = (after: number) => nextRuns(schedule, timezone, after, 1)[0] ?? null;
  let last = searchPreviousRun(schedule, timezone, firstCopy);
  for (let at = last ?? firstCopy - 1, steps = 0; steps < REPEAT_WALK_RUNS; steps++) {
    const following = next(at);
    if (following === null || following >= beforeMs) break;
    last = at = following;
  }
  return last;
}

/** Most runs walked through a repeated stretch of a fall-back night (an hour of one a second). */
const REPEAT_WALK_RUNS = 10_000;

/**
 * When `run` is in the second copy of a stretch the clocks repeat (just after they were set back),
 * when the first copy began; null when it is not.
 */
function repeatStart(run: number, timezone: string): number | null {
  for (const switchAt of offsetSwitchesBetween(timezone, run - 4 * 3_600_000, run)) {
    const setBack = utcOffsetMs(switchAt - 1, timezone) - utcOffsetMs(switchAt, timezone);
    if (setBack > 0 && run < switchAt + setBack) return switchAt - setBack;
  }
  return null;
}

/** The last run strictly before `beforeMs` found by the forward searches of calendarPreviousRun. */
function searchPreviousRun(schedule: string, timezone: string, beforeMs: number): number | null {
  const next = (after: number) => nextRuns(schedule, timezone, after, 1)[0] ?? null;
  // None in the look-back (30 February): one search says so, remembered for later pulses.
  const first = rememberedCalendarNext(schedule, timezone, beforeMs - MAX_LOOK_BACK_MS * 2);
  if (first === null || first >= beforeMs) return null;
  for (let back = 120_000; back <= MAX_LOOK_BACK_MS * 2; back *= 2) {
    let found: number | null = null;
    let at: number | null = beforeMs - back;
    for (let walked = 0; walked < MAX_WALKED_RUNS; walked++) {
      at = next(at);
      if (at === null || at >= beforeMs) break;
      found = at;
    }
    if (found === null) continue;
    if (at === found) {
      // Still before beforeMs after so many runs: the run after `low` is before it, the run after `high` is not.
      let low = found;
      let high = beforeMs - 1;
      while (high - low > 1) {
        const middle = low + Math.floor((high - low) / 2);
        const run = next(middle);
        if (run !== null && run < beforeMs) low = middle;
        else high = middle;
      }
      const run = next(low);
      return run !== null && run < beforeMs ? run : found;
    }
    return found;
  }
  return null;
}

/** The first run strictly after `afterMs`; null when there is none (or the schedule is not one). */
export function nextRunAfter(schedule: string, timezone: string, afterMs: number): number | null {
  const kind = kindOf(schedule);
  if (kind === 'cron') return cronNextRunAfter(schedule, timezone, afterMs);
  // A period's run may come at any moment: the next is one period after it.
  if (kind === 'period') return afterMs + periodMs(schedule);
  return rememberedCalendarNext(schedule, timezone, afterMs);
}

/**
 * The first run at or after `atMs` (a run exactly then counts); for a period, one period after it,
 * as from a resume: a period has no run of its own at a given moment. Null when there is none.
 */
export function nextRunAtOrAfter(schedule: string, timezone: string, atMs: number): number | null {
  if (kindOf(schedule) === 'period') return atMs + periodMs(schedule);
  return nextRunAfter(schedule, timezone, atMs - 1);
}

/**
 * The first run after `afterMs` of a timer that has been running since before it, as a monitor
 * awaits it (from a resume, an edit, the end of maintenance): nextRunAfter, except from a moment
 * in the second copy of an hour the clocks repeat, where a search started then would meet a run
 * that a running timer, whose wall clock never goes back, never makes: its next run after its last.
 */
export function runningTimerRunAfter(schedule: string, timezone: string, afterMs: number): number | null {
  if (kindOf(schedule) !== 'calendar' || repeatStart(afterMs, timezone) === null) return nextRunAfter(schedule, timezone, afterMs);
  const last = previousRunBefore(schedule, timezone, afterMs + 1);
  const run = last === null ? null : nextRunAfter(schedule, timezone, last);
  return run !== null && run > afterMs ? run : nextRunAfter(schedule, timezone, afterMs);
}

/** runningTimerRunAfter at or after `atMs` (a run exactly then counts); for a period, as nextRunAtOrAfter. */
export function runningTimerRunAtOrAfter(schedule: string, timezone: string, atMs: number): number | null {
  return kindOf(schedule) === 'period' ? nextRunAtOrAfter(schedule, timezone, atMs) : runningTimerRunAfter(schedule, timezone, atMs - 1);
}

/** The last run strictly before `beforeMs`; for a period, the moment just before (any moment may be a run). */
export function previousRunBefore(schedule: string, timezone: string, beforeMs: number): number | null {
  const kind = kindOf(schedule);
  if (kind === 'cron') return cronPreviousRunBefore(schedule, timezone, beforeMs);
  if (kind === 'period') return beforeMs - 1;
  return rememberedCalendarPrevious(schedule, timezone, beforeMs);
}

/** The schedule in words, its zone after the clock time ("at 02:30 Europe/Paris, Monday through Friday"); null when it is not one. */
export function scheduleWords(schedule: string, timezone?: string): string | null {
  const kind = kindOf(schedule);
  if (kind === 'cron') return cronWords(schedule, timezone);
  if (kind === 'period') return checkPeriod(schedule).schedule === undefined ? null : periodWords(checkPeriod(schedule).schedule!);
  const specs = calendarOf(schedule);
  return specs === null ? null : specs.map((spec) => calendarWords(spec, timezone)).join('; ');
}

/** Runs looked at for a calendar event's shortest gap: enough to meet it (a week of hourly runs is 168). */
const GAP_SAMPLE_RUNS = 64;

/**
 * The shortest gap between two runs in minutes, looking `days` ahead of `from` (Infinity when
 * fewer than two runs come): for cron by date arithmetic (cronDays.ts), for a calendar event among
 * its next runs (a search bounded as systemd's), for a period the period itself.
 */
export function shortestGapMinutes(schedule: string, from: number, days: number): number {
  const kind = kindOf(schedule);
  if (kind === 'cron') return cronShortestGapMinutes(schedule, from, days);
  if (kind === 'period') return Math.round(periodMs(schedule) / 60_000);
  const runs = nextRuns(schedule, 'UTC', from, GAP_SAMPLE_RUNS).filter((run) => run <= from + days * 86_400_000);
  let shortest = Infinity;
  for (let i = 1; i < runs.length; i++) shortest = Math.min(shortest, Math.round((runs[i]! - runs[i - 1]!) / 60_000));
  return shortest;
}

/**
 * The longest gap between two runs of a cron schedule in minutes, looking `days` ahead of `from`
 * by date arithmetic (cronDays.ts); Infinity for another kind, or when no run comes in that time.
 */
export function longestCronGapMinutes(schedule: string, from: number, days: number): number {
  return kindOf(schedule) === 'cron' ? cronLongestGapMinutes(schedule, from, days) : Infinity;
}

/** "Every 5 minutes" for the start of a sentence or a table cell. */
export function capitalised(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
