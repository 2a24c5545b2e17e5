import type { ReportPeriod, ReportSchedule } from './period';
import type { WindowSpan } from '../maintenance/windows';

/*
 * A report's numbers (the channel reports of docs/channels.md), from what the store kept: each
 * monitor's runs in the period, the failure and recovery notifications that bound its failed
 * stretches, and whether it is failed now. Pure: the period and `now` are passed in.
 */

/**
 * A failed stretch's start (the failure notification, with why) or end: the recovery, or a pause,
 * which acknowledges a failure without a recovery notification (paused time counts as up).
 */
export interface ReportEvent {
  at: number;
  kind: 'failed' | 'recovered' | 'paused';
  /** Why it failed: "failed" (the job said so), "missed" (no run came), "not_finished", "stuck"; null for a recovery, a pause or an older alert without a reason. */
  reason: string | null;
}

/** One monitor as the store gives it. */
export interface ReportMonitorInput {
  id: number;
  name: string;
  created_at: number;
  /** Paused now. */
  paused: boolean;
  /** Paused at some time in the period (now, or resumed since it began): it may not have run, and is not said to have "never ran". */
  paused_in_period: boolean;
  /** Runs that ended in the period (a success or a failure pulse; a start alone is not a run). */
  runs: number;
  /** Those the job said failed. */
  failures: number;
  /** The longest of them, ms; null when none said how long it took. */
  longest_run_ms: number | null;
  /** When its kept history begins, when older pulses were dropped after the period began (the counts then cover less than the period). */
  history_from: number | null;
  /** Its failures and recoveries from the period's start until now, and its pauses in the period, oldest first. */
  events: ReportEvent[];
  /** The occurrences in the period of the maintenance windows that cover it: failed time in them counts as up. */
  maintenance: readonly WindowSpan[];
  /** Failed now: since when and why (words); null when not failed. */
  failing: { since: number | null; reason: string } | null;
}

export interface ReportLine {
  id: number;
  name: string;
  runs: number;
  failures: number;
  /** Missed runs: alerts raised because no run came (one per failed stretch that began with a missed run). */
  missed: number;
  longest_run_ms: number | null;
  /** Time not failed over the time the monitor existed in the period, in percent, two decimals (rounded down). */
  uptime_percent: number;
  downtime_ms: number;
  history_from: number | null;
  paused: boolean;
}

export interface FailingNow {
  id: number;
  name: string;
  since: number | null;
  reason: string;
}

export interface ReportData {
  frequency: ReportSchedule['frequency'];
  timezone: string;
  from: number;
  to: number;
  /** When it was made (the failing-now list is as of then). */
  made_at: number;
  totals: { monitors: number; runs: number; failures: number; missed: number; failing_now: number; never_ran: number };
  /** Monitors that existed during the period, worst first: least uptime, then most failures and misses, then by name. */
  monitors: ReportLine[];
  /** Monitors that existed during the period and reported no run in it (those paused in it left out), by name. */
  never_ran: Array<{ id: number; name: string }>;
  failing_now: FailingNow[];
}

/**
 * The moments any of `lists` covers, as spans in order that neither overlap nor touch: what
 * a coverage reads of them (coverageOf), once for every monitor the same windows cover, instead of sorting
 * their tens of thousands of occurrences again for each monitor (a second per report of a few
 * hundred monitors under frequent windows, during which the agent answered nothing).
 */
export function unionOfSpans(lists: ReadonlyArray<readonly WindowSpan[]>): WindowSpan[] {
  const union: WindowSpan[] = [];
  for (const span of lists.flat().sort((a, b) => a.start - b.start)) {
    if (span.end <= span.start) continue;
    const last = union[union.length - 1];
    if (last !== undefined && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else union.push({ start: span.start, end: span.end });
  }
  return union;
}

/** How much of [from, to) some maintenance windows cover, each moment once. */
export type Coverage = (from: number, to: number) => number;

const NO_COVERAGE: Coverage = () => 0;

/**
 * How much of any [from, to) the spans cover, each moment once (spans may overlap: two windows at
 * once). Their union is worked out once and each stretch is then found in it by halving: a
 * flapping monitor's thousands of failed stretches each sorted a frequent window's tens of
 * thousands of occurrences again, seconds during which the agent answered nothing.
 */
export function coverageOf(spans: readonly WindowSpan[]): Coverage {
  const union = unionOfSpans([spans]);
  // coveredBefore[i]: the time the first i spans of the union cover.
  const coveredBefore = [0];
  for (const span of union) coveredBefore.push(coveredBefore[coveredBefore.length - 1]! + span.end - span.start);
  // The time covered before `at`: every span that starts before it, the last of them only up to it.
  const coveredUntil = (at: number): number => {
    let low = 0;
    let high = union.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (union[middle]!.start < at) low = middle + 1;
      else high = middle;
    }
    if (low === 0) return 0;
    const last = union[low - 1]!;
    return coveredBefore[low - 1]! + Math.min(last.end, at) - last.start;
  };
  return (from, to) => (to > from ? coveredUntil(to) - coveredUntil(from) : 0);
}

/**
 * Time failed within [start, to): the stretches the events bound, the state at `start` read from
 * them (or from now), less the time `covered` (by maintenance windows covering the monitor, which
 * count as up, as Uptime Kuma counts them).
 */
export function downtimeIn(events: ReportEvent[], failingNow: boolean, start: number, to: number, covered: Coverage = NO_COVERAGE): number {
  // The state before the first failure or recovery is its opposite; without any since the period began, it is the state now.
  // A pause says nothing of the state before it (it may pause a monitor that was not failed).
  const first = events.find((e) => e.kind !== 'paused');
  let down = first ? first.kind === 'recovered' : failingNow;
  let since = start;
  let total = 0;
  const stretch = (from: number, until: number) => until - from - covered(from, until);
  for (const event of events) {
    if (event.at >= to) break;
    const at = Math.max(event.at, start);
    if (event.kind === 'failed' && !down) {
      down = true;
      since = at;
    } else if (event.kind !== 'failed' && down) {
      total += stretch(since, at);
      down = false;
    }
  }
  if (down) total += stretch(since, to);
  return total;
}

/**
 * The events with the failure the monitor is in now, when no notification began it (alert after N
 * not reached yet, or folded into a flapping alert): a failed stretch from when it turned failed.
 * Without it, a failure of an hour with no event since the period began read as the whole period.
 */
function withUntoldFailure(events: ReportEvent[], failing: ReportMonitorInput['failing']): ReportEvent[] {
  if (!failing || failing.since === null || events[events.length - 1]?.kind === 'failed') return events;
  const untold: ReportEvent = { at: failing.since, kind: 'failed', reason: null };
  return [...events, untold].sort((a, b) => a.at - b.at);
}

/** Percent with two decimals, rounded down, so any downtime never reads 100.00. */
export function uptimePercent(downtime: number, span: number): number {
  return Math.floor(((span - downtime) / span) * 10_000) / 100;
}

/**
 * Whether a report names no monitor at all (none alerts its channel, or none existed in the period
 * and none fails now): such a report is not sent, as healthchecks.io sends none to an account
 * without a check; "0 monitors" every morning is noise.
 */
export function isEmptyReport(report: ReportData): boolean {
  return report.totals.monitors === 0 && report.failing_now.length === 0;
}

/** The report of `monitors` over `period`. */
export function buildReport(schedule: ReportSchedule, period: ReportPeriod, monitors: ReportMonitorInput[], now: number): ReportData {
  const lines: ReportLine[] = [];
  const neverRan: ReportData['never_ran'] = [];
  const failingNow: FailingNow[] = [];
  // Monitors the same windows cover share their list of occurrences (db/reports.ts): its union is worked out once.
  const coverages = new Map<readonly WindowSpan[], Coverage>();
  const coverageFor = (spans: readonly WindowSpan[]) => coverages.get(spans) ?? coverages.set(spans, coverageOf(spans)).get(spans)!;
  for (const m of monitors) {
    if (m.failing) failingNow.push({ id: m.id, name: m.name, since: m.failing.since, reason: m.failing.reason });
    const start = Math.max(period.from, m.created_at);
    // Made after the period: nothing to say of it but that it fails now.
    if (start >= period.to) continue;
    const covered = coverageFor(m.maintenance);
    const downtime = downtimeIn(withUntoldFailure(m.events, m.failing), m.failing !== null, start, period.to, covered);
    const missed = m.events.filter((e) => e.kind === 'failed' && e.reason === 'missed' && e.at >= period.from && e.at < period.to).length;
    // Paused in the period, or in maintenance all of it: no run was expected, so it is not said to have never run.
    if (m.runs === 0 && !m.paused && !m.paused_in_period && covered(start, period.to) < period.to - start) neverRan.push({ id: m.id, name: m.name });
    lines.push({
      id: m.id,
      name: m.name,
      runs: m.runs,
      failures: m.failures,
      missed,
      longest_run_ms: m.longest_run_ms,
      uptime_percent: uptimePercent(downtime, period.to - start),
      downtime_ms: downtime,
      history_from: m.history_from,
      paused: m.paused,
    });
  }
  const byName = (a: { name: string; id: number }, b: { name: string; id: number }) => a.name.localeCompare(b.name) || a.id - b.id;
  lines.sort((a, b) => a.uptime_percent - b.uptime_percent || b.failures + b.missed - (a.failures + a.missed) || byName(a, b));
  neverRan.sort(byName);
  failingNow.sort((a, b) => (a.since ?? 0) - (b.since ?? 0) || byName(a, b));
  const sum = (pick: (l: ReportLine) => number) => lines.reduce((n, l) => n + pick(l), 0);
  return {
    frequency: schedule.frequency,
    timezone: schedule.timezone,
    from: period.from,
    to: period.to,
    made_at: now,
    totals: {
      monitors: lines.length,
      runs: sum((l) => l.runs),
      failures: sum((l) => l.failures),
      missed: sum((l) => l.missed),
      failing_now: failingNow.length,
      never_ran: neverRan.length,
    },
    monitors: lines,
    never_ran: neverRan,
    failing_now: failingNow,
  };
}
