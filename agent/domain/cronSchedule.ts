import { CronExpressionParser } from 'cron-parser';
import { rememberedRuns } from './runFreeStretches';
import { utcOffset } from './zoneOffsets';

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

/** Whether the zone changed its offset during the few hours before `ms`. */
function switchedRecently(ms: number, timezone: string): boolean {
  return utcOffset(ms - SWITCH_LOOKBACK_MS, timezone) !== utcOffset(ms, timezone);
}

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
