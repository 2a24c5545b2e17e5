import type { Monitor } from '../api/types';
import { capitalised, checkSchedule, nextRuns as scheduleRuns, scheduleWords } from '../../../agent/domain/schedules';

/**
 * "At 03:00 Europe/Paris", "Every 5 minutes" (agent/domain/schedules/index.ts, the words alerts
 * and the CLI use too). Null when the expression cannot be described (the caller then shows
 * the raw expression).
 */
export function scheduleInWords(input: string, timezone?: string): string | null {
  // A list of thousands of monitors repeats a few schedules: describe each once (cronstrue is not cheap).
  const key = `${input}\n${timezone ?? ''}`;
  let words = described.get(key);
  if (words === undefined) {
    const plain = scheduleWords(input, timezone);
    words = plain === null ? null : capitalised(plain);
    if (described.size >= 2_000) described.clear();
    described.set(key, words);
  }
  return words;
}

const described = new Map<string, string | null>();

/**
 * The next `count` runs of `schedule` in `timezone` after `from`, or an error message when the
 * expression or the zone is not valid. The agent's own rule for every kind (agent/domain/schedules:
 * cron daemons' way on daylight-saving nights for cron, systemd's for calendar events, bounded
 * searches, so a schedule whose runs are years apart costs the page no more than a daily one).
 * Fewer when the schedule has no more runs.
 */
export function nextRuns(input: string, timezone: string, count: number, from: Date): Date[] | { error: string } {
  const { schedule, error } = checkSchedule(input);
  if (schedule === undefined) return { error };
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    return { error: `"${timezone}" is not a time zone.` };
  }
  // Every kind through the one door: cron, systemd calendar events (as systemd finds them), periods.
  return scheduleRuns(schedule, timezone, from.getTime(), count).map((ms) => new Date(ms));
}

/** The viewer's own zone, the default for a new monitor. */
export function viewerZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * A period counts from the last run, which only the agent knows (a pulse, a resume), never from
 * the moment the page is looked at: its next run is the agent's deadline less the grace. None
 * while it waits for a pulse (failed, paused), while a run with a max run time is under way (the
 * deadline is that run's), or when that moment is gone (a fresh grace after the agent was away).
 */
export function periodNextRun(m: Monitor, now: number): Date | undefined {
  if (!m.next_due_at || (m.status === 'running' && m.max_runtime)) return undefined;
  const at = Date.parse(m.next_due_at) - m.duration * 60_000;
  return at > now ? new Date(at) : undefined;
}
