import type { AlertReason, MonitorReason } from './alert';

/*
 * The words of the alerts that fold others (agent/domain/monitors/failureStreak.ts and flapping.ts):
 * "went wrong 3 times in a row (runs due …)", "is flapping", "is steady again". Each edge's own
 * moment format is passed in (`at`), so a channel and the dashboard write them in their zones.
 */

type FailedTimes = Extract<AlertReason, { kind: 'failed_times' }>;
type Flapping = Extract<AlertReason, { kind: 'flapping' }>;
type Steady = Extract<AlertReason, { kind: 'steady' }>;

/** Most due times an alert lists: the first two and the last three of a longer streak. */
const LISTED_RUNS = 5;

const dayFormatters = new Map<string, Intl.DateTimeFormat>();
const timeFormatters = new Map<string, Intl.DateTimeFormat>();

function made(cache: Map<string, Intl.DateTimeFormat>, zone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let formatter = cache.get(zone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-GB', { timeZone: zone, ...options });
    } catch {
      formatter = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', ...options });
    }
    cache.set(zone, formatter);
  }
  return formatter;
}

const day = (ms: number, zone: string) =>
  made(dayFormatters, zone, { weekday: 'short', day: 'numeric', month: 'short' }).format(ms).replace(',', '');
const clock = (ms: number, zone: string) => made(timeFormatters, zone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);

/**
 * When the failed runs were due, in one zone: "Fri 27 Nov 13:00, 13:10, 13:20 UTC" (a date again
 * where the day changes), a long streak shortened to its first two and last three.
 */
export function runsDueWords(runs: string[], zone: string): string {
  const times = runs.map((iso) => Date.parse(iso)).filter((ms) => !Number.isNaN(ms));
  if (times.length === 0) return '';
  const shown: Array<number | null> = times.length > LISTED_RUNS ? [...times.slice(0, 2), null, ...times.slice(-3)] : times;
  let lastDay = '';
  const words = shown.map((ms) => {
    if (ms === null) return '…';
    const today = day(ms, zone);
    const text = today === lastDay ? clock(ms, zone) : `${today} ${clock(ms, zone)}`;
    lastDay = today;
    return text;
  });
  return `${words.join(', ')} ${zone}`;
}

/** "3 times in a row", "twice in a row". */
export function timesInARow(times: number): string {
  return `${times === 2 ? 'twice' : `${times} times`} in a row`;
}

/**
 * The opening of a failure's alert after several: "Went wrong 3 times in a row (runs due …)". Not
 * "failed": in the one vocabulary that is what the job said, and the runs of a streak may as well
 * have been missed or stuck; the last one's own word follows ("Last: Missed: …").
 */
export function failedTimesOpening(reason: FailedTimes, zone: string): string {
  const runs = runsDueWords(reason.runs, zone);
  return `Went wrong ${timesInARow(reason.times)}${runs ? ` (runs due ${runs})` : ''}`;
}

/** The alert's state word for the last failure of a streak, as for that failure alone. */
export function lastFailureState(last: MonitorReason): string {
  if (last.kind === 'missed') return 'MISSED';
  if (last.kind === 'failed') return 'FAILED';
  return 'STUCK';
}

const windowWords = (minutes: number) => (minutes === 60 ? 'the last hour' : `the last ${minutes} min`);

/** What a flapping alert says, `at` writing a moment in the reader's zone. */
export function flappingWords(reason: Flapping, at: (iso: string) => string): string {
  const now = reason.failed ? 'failed' : 'fine';
  return (
    `Changed between failed and fine ${reason.changes} times in ${windowWords(reason.window_minutes)} (since ${at(reason.since)}); now ${now}. ` +
    'No more alerts for it until it has been steady for an hour.'
  );
}

/** What a steady-again alert says. */
export function steadyWords(reason: Steady, at: (iso: string) => string): string {
  const hours = reason.steady_minutes === 60 ? 'an hour' : `${reason.steady_minutes} min`;
  const since = reason.failed && reason.failed_since ? ` since ${at(reason.failed_since)}` : '';
  const state = reason.failed ? `now failed${since}` : 'now fine';
  return `No change for ${hours} after flapping since ${at(reason.flapping_since)} (${reason.changes} changes): ${state}. Alerts are sent again.`;
}
