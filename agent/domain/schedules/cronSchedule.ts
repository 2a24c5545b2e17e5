import { CronExpressionParser } from 'cron-parser';
import { dayStart, firstRunDay, lastRunDay, scheduleForDays, walksAnyStretch } from './cronDays';
import { parserText } from './cronParserText';
import { rememberedRuns } from './runCache';
import { utcOffsetMs } from '../time/zoneOffsets';

/**
 * Occurrences of a five-field cron schedule in an IANA time zone, as UTC milliseconds, done
 * the way cron daemons do them on daylight-saving days (Vixie cron, cronie, Debian's cron):
 * - a fixed-time schedule (neither the minute nor the hour field starts with `*`) whose time
 *   falls in a spring-forward gap runs right after the jump: `30 2 * * *` in New York on
 *   2026-03-08 runs at 03:00 EDT; in a fall-back repeat it runs once, at the first occurrence.
 *   Each skipped time is a run of its own (the daemon's main loop, on a jump forward of up to
 *   three hours, walks every skipped minute and starts each fixed-time job matching one), so
 *   `0,30 2 * * *` runs twice at the jump, seconds apart: one instant here, answered by either;
 * - a wildcard schedule (`* …`, `*\/15 …`, `0 * …`, hourly and finer) runs in every real hour:
 *   its times in a gap do not exist and are skipped; in a repeat they run in both copies.
 *
 * Away from switches cron-parser's own answer is kept (it is right there, and quick); when a
 * switch is within a few hours of the search, the runs are found by walking the schedule's
 * wall-clock times (cron-parser in UTC) and mapping each to the instants that show it, by the
 * rule above.
 *
 * cron-parser walks to a run step by step, tens of microseconds a step in a zone, so a search is
 * never left to cover years: each looks at most SEARCH_HORIZON_MS ahead (or back), and when it
 * finds nothing there the next search starts right before the schedule's next day, found by date
 * arithmetic (cronDays.ts). A schedule whose runs are years apart (`0 0 29 2 *`) costs two short
 * searches, not a walk through four years.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Longer than any daylight-saving shift, so a search starting this far back starts before it. */
const SWITCH_LOOKBACK_MS = 3 * HOUR;

/** cron-parser from `from` in the zone, finding nothing past `bound` (a time span: after it walking forward, before it walking back). */
function iterator(schedule: string, timezone: string, from: number, bound?: Bound) {
  return CronExpressionParser.parse(walked(schedule, from, bound), { currentDate: new Date(from), tz: timezone, ...spanOf(bound) });
}

/**
 * The schedule cron-parser walks from `from` to `bound` (instants or wall-clock times: two days
 * either side cover both): scheduleForDays. A schedule it cannot walk unbounded is always given one.
 */
function walked(schedule: string, from: number, bound?: Bound): string {
  if (bound === undefined) return parserText(schedule);
  const to = 'end' in bound ? bound.end : bound.start;
  const forDays = scheduleForDays(schedule, dayStart(Math.min(from, to)) - 2 * DAY, dayStart(Math.max(from, to)) + 2 * DAY);
  if (forDays === null) throw new Error('no day of the schedule in this stretch');
  return parserText(forDays);
}

/** The bound of a last search: none, unless cron-parser can walk the schedule only a stretch at a time. */
function lastBound(schedule: string, from: number, direction: 1 | -1): number | undefined {
  return walksAnyStretch(schedule) ? undefined : from + direction * SEARCH_HORIZON_MS;
}

/** The farthest instant (or, for a walk, wall-clock time) a search may look at. */
type Bound = { end: number } | { start: number };

function spanOf(bound: Bound | undefined): { endDate?: Date; startDate?: Date } {
  if (!bound) return {};
  return 'end' in bound ? { endDate: new Date(bound.end) } : { startDate: new Date(bound.start) };
}

/** The wall-clock time at `ms` in the zone, as milliseconds of a UTC date showing the same. */
function wallClockAt(ms: number, timezone: string): number {
  return ms + utcOffsetMs(ms, timezone);
}

/** Vixie cron's MIN_STAR | HR_STAR: the minute or the hour field starts with `*`. */
function isWildcard(schedule: string): boolean {
  const [minute = '', hour = ''] = schedule.trim().split(/\s+/);
  return minute.startsWith('*') || hour.startsWith('*');
}

/** The instants whose wall clock shows `wall`: one, none (a spring-forward gap) or two (a fall-back repeat), earliest first. */
function instantsShowing(wall: number, timezone: string): number[] {
  const offsets = new Set([utcOffsetMs(wall - DAY, timezone), utcOffsetMs(wall + DAY, timezone)]);
  return [...offsets]
    .map((offset) => wall - offset)
    .filter((ms) => wallClockAt(ms, timezone) === wall)
    .sort((a, b) => a - b);
}

/** The instant the clocks jumped over `wall`, a time inside a spring-forward gap. */
function jumpOver(wall: number, timezone: string): number {
  const before = Math.min(utcOffsetMs(wall - DAY, timezone), utcOffsetMs(wall + DAY, timezone));
  const after = Math.max(utcOffsetMs(wall - DAY, timezone), utcOffsetMs(wall + DAY, timezone));
  // Still the offset before the jump at `early`, already the one after it at `late`.
  let early = wall - after;
  let late = wall - before;
  while (late - early > 1) {
    const middle = Math.floor((early + late) / 2);
    if (utcOffsetMs(middle, timezone) === after) late = middle;
    else early = middle;
  }
  return late;
}

/** When a schedule whose wall-clock time `wall` matched runs, by the rule at the top of this file. */
function runsShowing(wall: number, timezone: string, wildcard: boolean): number[] {
  const instants = instantsShowing(wall, timezone);
  if (instants.length === 0) return wildcard ? [] : [jumpOver(wall, timezone)];
  return wildcard ? instants : [instants[0]];
}

/** cron-parser over wall-clock times: the zone is left out, so every time exists once. */
function wallClockTimes(schedule: string, from: number, bound?: Bound) {
  return CronExpressionParser.parse(walked(schedule, from, bound), { currentDate: new Date(from), tz: 'UTC', ...spanOf(bound) });
}

/** How far one search looks before the next starts at the schedule's next day: a few steps of cron-parser. */
export const SEARCH_HORIZON_MS = 3 * DAY;
/** Searches before the last, unbounded one: the second normally finds the run. */
const MAX_HOPS = 4;

/** Most wall-clock times one search near a switch walks (an every-minute schedule walks about 120). */
const MAX_WALK = 5_000;

// Remembered answers, however long the run-free stretch (see runFreeStretches.ts).
const rememberedNextRun = rememberedRuns('to', computeNextRunAfter);
const rememberedPreviousRun = rememberedRuns('from', computePreviousRunBefore);

/**
 * The first run strictly after `afterMs`. Null when the schedule has no such run (an
 * impossible date such as 31 April, or none within the parser's search range) or the
 * expression or zone is not understood.
 */
export function nextRunAfter(schedule: string, timezone: string, afterMs: number): number | null {
  return rememberedNextRun(schedule, timezone, afterMs);
}

/**
 * The last run strictly before `beforeMs`. Null when there is none (see nextRunAfter).
 * Right after a fall-back repeat this may name the repeated copy of a time that
 * nextRunAfter skips; both anchor the same next run, which is all callers need.
 */
export function previousRunBefore(schedule: string, timezone: string, beforeMs: number): number | null {
  return rememberedPreviousRun(schedule, timezone, beforeMs);
}

/*
 * A hop: nothing in (from, bound], so no run can come from a wall-clock day before the schedule's
 * next day at or after the day before `bound` (every instant of a day, in any zone from -12 to +14
 * hours, moved by any switch of at most 3 hours, is within a day of it): the next search starts
 * a day before that day. Backwards the same, mirrored.
 */

function computeNextRunAfter(schedule: string, timezone: string, afterMs: number): number | null {
  let from = afterMs;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const bound = from + SEARCH_HORIZON_MS;
    const run = nextRunWithin(schedule, timezone, from, bound);
    if (run !== null && run <= bound) return run;
    const day = firstRunDay(schedule, dayStart(bound - DAY));
    if (day === undefined) break;
    if (day === null) return null;
    from = Math.max(bound, day - DAY);
  }
  return nextRunWithin(schedule, timezone, from, lastBound(schedule, from, 1));
}

function computePreviousRunBefore(schedule: string, timezone: string, beforeMs: number): number | null {
  let from = beforeMs;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const bound = from - SEARCH_HORIZON_MS;
    const run = previousRunWithin(schedule, timezone, from, bound);
    if (run !== null && run >= bound) return run;
    const day = lastRunDay(schedule, dayStart(bound + DAY));
    if (day === undefined) break;
    if (day === null) return null;
    from = Math.min(bound, day + 2 * DAY);
  }
  return previousRunWithin(schedule, timezone, from, lastBound(schedule, from, -1));
}

/** The first run after `afterMs`; with `bound`, null when there is none up to it (a run found past it may not be the first). */
function nextRunWithin(schedule: string, timezone: string, afterMs: number, bound?: number): number | null {
  try {
    // cron-parser is not asked right next to a switch: there it can loop for a long while before giving up.
    const here = switchBetween(afterMs, afterMs, timezone);
    if (here !== 0) return nextRunNearSwitch(schedule, timezone, afterMs, here, bound);
    const plain = plainRun(() => iterator(schedule, timezone, afterMs, bound === undefined ? undefined : { end: bound }).next().getTime());
    const shift = switchBetween(afterMs, plain, timezone);
    return shift === 0 ? plain : nextRunNearSwitch(schedule, timezone, afterMs, shift, bound);
  } catch {
    return null;
  }
}

function previousRunWithin(schedule: string, timezone: string, beforeMs: number, bound?: number): number | null {
  try {
    const here = switchBetween(beforeMs, beforeMs, timezone);
    if (here !== 0) return previousRunNearSwitch(schedule, timezone, beforeMs, here, bound);
    const plain = plainRun(() => iterator(schedule, timezone, beforeMs, bound === undefined ? undefined : { start: bound }).prev().getTime());
    const shift = switchBetween(plain, beforeMs, timezone);
    return shift === 0 ? plain : previousRunNearSwitch(schedule, timezone, beforeMs, shift, bound);
  } catch {
    return null;
  }
}

/** cron-parser's own answer in the zone, or null when it gives up (it can, next to a half-hour switch). */
function plainRun(find: () => number): number | null {
  try {
    return find();
  } catch {
    return null;
  }
}

/**
 * How far the clocks move at a switch within SWITCH_LOOKBACK_MS of the stretch from `from` to
 * `to` (one of them null: cron-parser found no run), so that cron-parser's plain answer cannot be
 * kept; 0 when there is none. A stretch longer than a day may hide two switches that cancel out,
 * so it counts as having one of the largest size.
 */
function switchBetween(from: number | null, to: number | null, timezone: string): number {
  if (from === null || to === null || to - from > DAY) return SWITCH_LOOKBACK_MS;
  return Math.abs(utcOffsetMs(from - SWITCH_LOOKBACK_MS, timezone) - utcOffsetMs(to + SWITCH_LOOKBACK_MS, timezone));
}

/*
 * The walks below rely on this: a run found for wall-clock time W shows W on the clock, or (moved
 * to a jump) a later time by less than the switch's `shift`; and the wall clock never goes back
 * by more than `shift`. So runs after `afterMs` come from times after its wall clock minus the
 * shift, and once times pass the best run's wall clock plus the shift, none of theirs can beat it.
 */

// A walk bounded by an instant `bound` looks at wall-clock times up to a day past it: enough to
// pass the best run up to `bound` by the shift, so a run it returns up to `bound` is the first.

function nextRunNearSwitch(schedule: string, timezone: string, afterMs: number, shift: number, bound?: number): number | null {
  const wildcard = isWildcard(schedule);
  const times = wallClockTimes(schedule, wallClockAt(afterMs, timezone) - shift - 1, bound === undefined ? undefined : { end: bound + DAY });
  let best: number | null = null;
  for (let walked = 0; walked < MAX_WALK && times.hasNext(); walked++) {
    const wall = times.next().getTime();
    if (best !== null && wall > wallClockAt(best, timezone) + shift) break;
    for (const run of runsShowing(wall, timezone, wildcard)) {
      if (run > afterMs && (best === null || run < best)) best = run;
    }
  }
  return best;
}

function previousRunNearSwitch(schedule: string, timezone: string, beforeMs: number, shift: number, bound?: number): number | null {
  const wildcard = isWildcard(schedule);
  const times = wallClockTimes(schedule, wallClockAt(beforeMs, timezone) + shift + 1, bound === undefined ? undefined : { start: bound - DAY });
  let best: number | null = null;
  for (let walked = 0; walked < MAX_WALK && times.hasPrev(); walked++) {
    const wall = times.prev().getTime();
    if (best !== null && wall < wallClockAt(best, timezone) - 2 * shift) break;
    for (const run of runsShowing(wall, timezone, wildcard)) {
      if (run < beforeMs && (best === null || run > best)) best = run;
    }
  }
  return best;
}
