import { CronExpressionParser } from 'cron-parser';

/**
 * Occurrences of a five-field cron schedule in an IANA time zone, as UTC milliseconds, done
 * the way cron does them on daylight-saving days: a time inside a spring-forward gap runs
 * once, shifted forward by the gap (02:30 becomes 03:30); a time inside a fall-back repeat
 * runs once, at its first occurrence; hourly and finer schedules run in every real hour.
 *
 * cron-parser gets the shifted run only when it starts searching before the switch, so
 * within a few hours after a switch we search forward from before it.
 */

const HOUR = 3_600_000;
/** Longer than any daylight-saving shift, so a search starting this far back starts before it. */
const SWITCH_LOOKBACK_MS = 3 * HOUR;

function iterator(schedule: string, timezone: string, from: number) {
  return CronExpressionParser.parse(schedule, { currentDate: new Date(from), tz: timezone });
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's UTC offset at `ms`, as a label such as "GMT-04:00". */
function utcOffset(ms: number, timezone: string): string {
  let formatter = offsetFormatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timezone, formatter);
  }
  return formatter.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/** Whether the zone changed its offset during the few hours before `ms`. */
function switchedRecently(ms: number, timezone: string): boolean {
  return utcOffset(ms - SWITCH_LOOKBACK_MS, timezone) !== utcOffset(ms, timezone);
}

/**
 * Remembered answers, because parsing and walking a schedule in a zone costs about a
 * millisecond and every pulse asks several times about the same few runs. For each schedule
 * and zone we keep the last stretch of time known to hold no run, with the run at its end
 * (for nextRunAfter) or at its start (for previousRunBefore): any time inside gets the same
 * answer. Only short stretches away from daylight-saving switches are kept, where the plain
 * search is the one that runs; everything else is computed every time.
 */
interface RunFreeStretch {
  /** No run strictly between `from` and `to`. */
  from: number;
  to: number;
}
const MAX_REMEMBERED_STRETCH_MS = 24 * HOUR;
const MAX_REMEMBERED_SCHEDULES = 10_000;
/**
 * The last two stretches per schedule and zone: pulses that come early for a run and the run
 * after it ask about two neighbouring stretches in turn, which one alone would keep evicting.
 */
type Remembered = [RunFreeStretch, RunFreeStretch?];
const nextRuns = new Map<string, Remembered>();
const previousRuns = new Map<string, Remembered>();

/** Keeps `from`..`to`, merged with a remembered stretch that ends (or starts) at the same run. */
function remember(memo: Map<string, Remembered>, key: string, stretch: RunFreeStretch, sameRun: 'to' | 'from', timezone: string): void {
  if (stretch.to - stretch.from > MAX_REMEMBERED_STRETCH_MS) return;
  // At most one switch fits in a day, so equal offsets at both ends (and a lookback before) mean none.
  if (utcOffset(stretch.from - SWITCH_LOOKBACK_MS, timezone) !== utcOffset(stretch.to, timezone)) return;
  const known = memo.get(key);
  const same = known?.find((s) => s?.[sameRun] === stretch[sameRun]);
  if (same) {
    same.from = Math.min(same.from, stretch.from);
    same.to = Math.max(same.to, stretch.to);
    return;
  }
  if (memo.size >= MAX_REMEMBERED_SCHEDULES) memo.clear();
  memo.set(key, [stretch, known?.[0]]);
}

/**
 * The first run strictly after `afterMs`. Null when the schedule has no such run (an
 * impossible date such as 31 April, or none within the parser's search range) or the
 * expression or zone is not understood.
 */
export function nextRunAfter(schedule: string, timezone: string, afterMs: number): number | null {
  const key = `${schedule}\n${timezone}`;
  // The run ends the stretch: every time from its start up to the run answers that run.
  const known = nextRuns.get(key)?.find((s) => s !== undefined && s.from <= afterMs && afterMs < s.to);
  if (known) return known.to;
  const run = computeNextRunAfter(schedule, timezone, afterMs);
  if (run !== null) remember(nextRuns, key, { from: afterMs, to: run }, 'to', timezone);
  return run;
}

/**
 * The last run strictly before `beforeMs`. Null when there is none (see nextRunAfter).
 * Right after a fall-back repeat this may name the repeated copy of a time that
 * nextRunAfter skips; both anchor the same next run, which is all callers need.
 */
export function previousRunBefore(schedule: string, timezone: string, beforeMs: number): number | null {
  const key = `${schedule}\n${timezone}`;
  // The run starts the stretch: every time after it up to the stretch's end answers that run.
  const known = previousRuns.get(key)?.find((s) => s !== undefined && s.from < beforeMs && beforeMs <= s.to);
  if (known) return known.from;
  const run = computePreviousRunBefore(schedule, timezone, beforeMs);
  if (run !== null) remember(previousRuns, key, { from: run, to: beforeMs }, 'from', timezone);
  return run;
}

function computeNextRunAfter(schedule: string, timezone: string, afterMs: number): number | null {
  try {
    if (!switchedRecently(afterMs, timezone)) return iterator(schedule, timezone, afterMs).next().getTime();
    const runs = iterator(schedule, timezone, afterMs - SWITCH_LOOKBACK_MS);
    for (;;) {
      const run = runs.next().getTime();
      if (run > afterMs) return run;
    }
  } catch {
    return null;
  }
}

function computePreviousRunBefore(schedule: string, timezone: string, beforeMs: number): number | null {
  try {
    const previous = iterator(schedule, timezone, beforeMs).prev().getTime();
    if (!switchedRecently(beforeMs, timezone)) return previous;
    const runs = iterator(schedule, timezone, beforeMs - SWITCH_LOOKBACK_MS);
    let latest: number | null = null;
    for (let run = runs.next().getTime(); run < beforeMs; run = runs.next().getTime()) latest = run;
    return latest ?? previous;
  } catch {
    return null;
  }
}
