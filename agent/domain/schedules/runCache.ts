import { offsetSwitchesBetween } from '../time/zoneOffsets';

/*
 * Remembered answers for cronSchedule, because parsing and walking a schedule in a zone costs
 * about a millisecond (tens for a yearly or leap-day schedule) and every pulse asks several
 * times about the same few runs. For each schedule and zone we keep the last stretches of time
 * known to hold no run, with the run at their end (for "the next run after t") or at their
 * start (for "the last run before t"): any time inside gets the same answer, however long the
 * stretch.
 *
 * Near a daylight-saving switch a computed answer may depend on where the search starts (a
 * shifted run is found only by a search that starts before the switch), so a question asked
 * near a switch is never answered from memory nor remembered: it is computed every time. Far
 * from switches, the plain search from any time inside a stretch finds the same run.
 */

const HOUR = 3_600_000;
/** How close to an offset switch a question is computed every time; wider than any search's look-back. */
export const NEAR_SWITCH_MS = 6 * HOUR;
/** Longer than any real gap between two runs (29 February: 8 years), so the switch scan stays bounded. */
const MAX_REMEMBERED_STRETCH_MS = 9 * 366 * 24 * HOUR;
const MAX_REMEMBERED_SCHEDULES = 10_000;

export interface RunFreeStretch {
  /** No run strictly between `from` and `to`. */
  from: number;
  to: number;
  /** The zone's offset switches within NEAR_SWITCH_MS of the stretch; usually none. */
  switches: number[];
}

/** Which end of the stretch is the run: `to` for the next run after t, `from` for the last run before t. */
export type RunEnd = 'to' | 'from';

type Compute = (schedule: string, timezone: string, at: number) => number | null;

function nearSwitch(at: number, switches: number[]): boolean {
  for (const s of switches) if (Math.abs(at - s) <= NEAR_SWITCH_MS) return true;
  return false;
}

/** Whether a stretch with the run at `runEnd` answers a question about `at`. */
function covers(stretch: RunFreeStretch, at: number, runEnd: RunEnd): boolean {
  // The next run after t: t in [from, to). The last run before t: t in (from, to].
  return runEnd === 'to' ? stretch.from <= at && at < stretch.to : stretch.from < at && at <= stretch.to;
}

/** Stretches remembered per schedule and zone, newest first. */
const STRETCHES_PER_SCHEDULE = 4;

/**
 * `compute` with remembered answers: the last STRETCHES_PER_SCHEDULE stretches per schedule and
 * zone. Pulses that come early for a run and the run after it ask about two neighbouring stretches
 * in turn, and while a burst of its monitors is failed the loop asks about other runs of the same
 * schedules: with two, each evicted the other's, and pulses computed their runs again (a tenth of a
 * second of every second of a burst). A stretch that ends at the same run as a remembered one is
 * merged into it.
 */
export function rememberedRuns(runEnd: RunEnd, compute: Compute): Compute {
  // By schedule, then zone: a key made of both was built for every question, and every pulse asks several.
  const memo = new Map<string, Map<string, RunFreeStretch[]>>();
  let remembered = 0;

  const remember = (schedule: string, timezone: string, from: number, to: number): void => {
    const known = memo.get(schedule)?.get(timezone);
    const same = known?.find((s) => s[runEnd] === (runEnd === 'to' ? to : from));
    const merged = same ? { from: Math.min(same.from, from), to: Math.max(same.to, to) } : { from, to };
    if (merged.to - merged.from > MAX_REMEMBERED_STRETCH_MS) return;
    const stretch = { ...merged, switches: offsetSwitchesBetween(timezone, merged.from - NEAR_SWITCH_MS, merged.to + NEAR_SWITCH_MS) };
    if (same) return void Object.assign(same, stretch);
    if (remembered >= MAX_REMEMBERED_SCHEDULES) {
      memo.clear();
      remembered = 0;
    }
    let zones = memo.get(schedule);
    if (!zones) memo.set(schedule, (zones = new Map()));
    if (!known) {
      remembered++;
      zones.set(timezone, [stretch]);
      return;
    }
    known.unshift(stretch);
    if (known.length > STRETCHES_PER_SCHEDULE) known.pop();
  };

  return (schedule, timezone, at) => {
    const known = memo.get(schedule)?.get(timezone);
    if (known) {
      for (const stretch of known) {
        if (!covers(stretch, at, runEnd)) continue;
        if (!nearSwitch(at, stretch.switches)) return stretch[runEnd];
        break;
      }
    }
    const run = compute(schedule, timezone, at);
    if (run === null) return null;
    const [from, to] = runEnd === 'to' ? [at, run] : [run, at];
    // Asked near a switch, the answer may hold for this question only.
    if (!nearSwitch(at, offsetSwitchesBetween(timezone, at - NEAR_SWITCH_MS, at + NEAR_SWITCH_MS))) remember(schedule, timezone, from, to);
    return run;
  };
}
