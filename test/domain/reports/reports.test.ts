import { describe, expect, it } from 'vitest';
import { buildReport, coverageOf, downtimeIn, unionOfSpans, type ReportMonitorInput } from '../../../agent/domain/reports/numbers';
import { lastReportPeriod, repeatsReported } from '../../../agent/domain/reports/period';
import { reportMessage, reportText } from '../../../agent/domain/reports/message';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const at = (iso: string) => Date.parse(iso);

describe('report periods', () => {
  it('a daily report at 08:00 covers yesterday 08:00 to today 08:00 on the zone clock', () => {
    const schedule = { frequency: 'daily' as const, time: '08:00', timezone: 'Europe/Berlin' };
    // 08:00 Berlin is 07:00 UTC in winter.
    expect(lastReportPeriod(schedule, at('2026-11-27T07:00:00Z'))).toEqual({ from: at('2026-11-26T07:00:00Z'), to: at('2026-11-27T07:00:00Z') });
    // A minute before today's time, the last whole period is the day before.
    expect(lastReportPeriod(schedule, at('2026-11-27T06:59:00Z'))).toEqual({ from: at('2026-11-25T07:00:00Z'), to: at('2026-11-26T07:00:00Z') });
  });

  it('a day that changes the clocks is 25 hours long, and the report still comes at 08:00', () => {
    const schedule = { frequency: 'daily' as const, time: '08:00', timezone: 'Europe/Berlin' };
    const period = lastReportPeriod(schedule, at('2026-10-25T12:00:00Z'))!;
    expect(period).toEqual({ from: at('2026-10-24T06:00:00Z'), to: at('2026-10-25T07:00:00Z') });
    expect(period.to - period.from).toBe(25 * HOUR);
  });

  it('weekly from Monday to Monday, monthly from the 1st to the 1st', () => {
    const weekly = { frequency: 'weekly' as const, time: '09:30', timezone: 'UTC' };
    // Friday 27 Nov 2026: the last Monday was the 23rd.
    expect(lastReportPeriod(weekly, at('2026-11-27T12:00:00Z'))).toEqual({ from: at('2026-11-16T09:30:00Z'), to: at('2026-11-23T09:30:00Z') });
    const monthly = { frequency: 'monthly' as const, time: '08:00', timezone: 'America/New_York' };
    expect(lastReportPeriod(monthly, at('2026-11-27T12:00:00Z'))).toEqual({ from: at('2026-10-01T12:00:00Z'), to: at('2026-11-01T13:00:00Z') });
    // (New York left summer time that night: 08:00 was 12:00 UTC on 1 October and 13:00 on 1 November.)
  });

  it('a period more than half reported already (a new report time) repeats the last report; consecutive ones never do', () => {
    const day = { from: at('2026-11-26T09:00:00Z'), to: at('2026-11-27T09:00:00Z') };
    expect(repeatsReported(day, at('2026-11-26T09:00:00Z'))).toBe(false);
    expect(repeatsReported(day, at('2026-11-25T09:00:00Z'))).toBe(false);
    expect(repeatsReported(day, at('2026-11-27T08:00:00Z'))).toBe(true);
    expect(repeatsReported(day, at('2026-11-26T21:00:00Z'))).toBe(false);
    expect(repeatsReported(day, at('2026-11-26T21:00:01Z'))).toBe(true);
  });

  it('an unknown zone gives no period', () => {
    expect(lastReportPeriod({ frequency: 'daily', time: '08:00', timezone: 'Mars/Olympus' }, Date.now())).toBeNull();
  });
});

describe('report numbers', () => {
  const from = at('2026-11-26T00:00:00Z');
  const to = from + DAY;
  const schedule = { frequency: 'daily' as const, time: '00:00', timezone: 'UTC' };
  const monitor = (over: Partial<ReportMonitorInput>): ReportMonitorInput => ({
    id: 1,
    name: 'backup',
    created_at: from - 30 * DAY,
    paused: false,
    paused_in_period: false,
    runs: 0,
    failures: 0,
    longest_run_ms: null,
    history_from: null,
    events: [],
    maintenance: [],
    failing: null,
    ...over,
  });

  it('counts a timeline of runs, failures and misses, and the time failed', () => {
    // Failed (exit 1) 02:00, recovered 03:00; missed 10:00, recovered 16:00; failed again 22:00, still failed now.
    const events = [
      { at: from + 2 * HOUR, kind: 'failed' as const, reason: 'failed' },
      { at: from + 3 * HOUR, kind: 'recovered' as const, reason: null },
      { at: from + 10 * HOUR, kind: 'failed' as const, reason: 'missed' },
      { at: from + 16 * HOUR, kind: 'recovered' as const, reason: null },
      { at: from + 22 * HOUR, kind: 'failed' as const, reason: 'failed' },
    ];
    const report = buildReport(schedule, { from, to }, [
      monitor({ runs: 20, failures: 2, longest_run_ms: 4 * MIN + 3000, events, failing: { since: from + 22 * HOUR, reason: 'failed (exit 1)' } }),
    ], to + MIN);
    const [line] = report.monitors;
    expect(line).toMatchObject({ runs: 20, failures: 2, missed: 1, longest_run_ms: 243_000, downtime_ms: 9 * HOUR });
    // 15 of 24 hours up.
    expect(line!.uptime_percent).toBe(62.5);
    expect(report.failing_now).toEqual([{ id: 1, name: 'backup', since: from + 22 * HOUR, reason: 'failed (exit 1)' }]);
    expect(report.totals).toEqual({ monitors: 1, runs: 20, failures: 2, missed: 1, failing_now: 1, never_ran: 0 });
  });

  it('a pause ends a failed stretch, and says nothing of the state before it', () => {
    const failedThenPaused = [
      { at: from + 2 * HOUR, kind: 'failed' as const, reason: 'missed' },
      { at: from + 3 * HOUR, kind: 'paused' as const, reason: null },
      { at: from + 10 * HOUR, kind: 'failed' as const, reason: 'missed' },
      { at: from + 12 * HOUR, kind: 'recovered' as const, reason: null },
    ];
    expect(downtimeIn(failedThenPaused, false, from, to)).toBe(3 * HOUR);
    // Paused while up, then failed after the resume: up before the pause.
    const pausedThenFailed = [
      { at: from + 2 * HOUR, kind: 'paused' as const, reason: null },
      { at: from + 20 * HOUR, kind: 'failed' as const, reason: 'missed' },
    ];
    expect(downtimeIn(pausedThenFailed, true, from, to)).toBe(4 * HOUR);
  });

  it('a monitor failed before the period counts from its start; events after the period count for nothing', () => {
    // Failed since before the period, recovered at 06:00, failed after the period ended.
    const events = [
      { at: from + 6 * HOUR, kind: 'recovered' as const, reason: null },
      { at: to + HOUR, kind: 'failed' as const, reason: 'missed' },
    ];
    expect(downtimeIn(events, true, from, to)).toBe(6 * HOUR);
    // No events since the period began: the state now is the state all along.
    expect(downtimeIn([], true, from, to)).toBe(DAY);
    expect(downtimeIn([], false, from, to)).toBe(0);
    const report = buildReport(schedule, { from, to }, [monitor({ events, runs: 3, failing: { since: to + HOUR, reason: 'missed' } })], to + 2 * HOUR);
    expect(report.monitors[0]).toMatchObject({ uptime_percent: 75, missed: 0 });
  });

  it('any downtime never reads 100.00%, and a monitor made during the period counts from then', () => {
    const events = [
      { at: from + HOUR, kind: 'failed' as const, reason: 'failed' },
      { at: from + HOUR + 1000, kind: 'recovered' as const, reason: null },
    ];
    const report = buildReport(schedule, { from, to }, [
      monitor({ id: 1, name: 'blip', events, runs: 5 }),
      // Made at noon, failed from 18:00: 6 of its 12 hours.
      monitor({ id: 2, name: 'young', created_at: from + 12 * HOUR, runs: 1, events: [{ at: from + 18 * HOUR, kind: 'failed', reason: 'missed' }], failing: { since: from + 18 * HOUR, reason: 'missed' } }),
      monitor({ id: 3, name: 'later', created_at: to + HOUR }),
    ], to);
    const byName = Object.fromEntries(report.monitors.map((l) => [l.name, l]));
    expect(byName.blip!.uptime_percent).toBe(99.99);
    expect(byName.young!.uptime_percent).toBe(50);
    // Worst first; the one made after the period is left out, and is not "never ran".
    expect(report.monitors.map((l) => l.name)).toEqual(['young', 'blip']);
    expect(report.never_ran).toEqual([]);
  });

  it('lists monitors that never ran, leaving out paused ones', () => {
    const report = buildReport(schedule, { from, to }, [
      monitor({ id: 1, name: 'quiet' }),
      monitor({ id: 2, name: 'paused', paused: true, paused_in_period: true }),
      monitor({ id: 3, name: 'busy', runs: 4 }),
      monitor({ id: 4, name: 'resumed', paused_in_period: true }),
    ], to);
    expect(report.never_ran).toEqual([{ id: 1, name: 'quiet' }]);
    expect(report.totals.never_ran).toBe(1);
  });

  it('leaves out a monitor in maintenance all the period (two windows end to end), not one in maintenance for part of it', () => {
    const half = from + (to - from) / 2;
    const report = buildReport(schedule, { from, to }, [
      monitor({ id: 1, name: 'in maintenance', maintenance: [{ start: half - HOUR, end: to + HOUR }, { start: from - HOUR, end: half }] }),
      monitor({ id: 2, name: 'partly', maintenance: [{ start: from, end: half }] }),
      monitor({ id: 3, name: 'made during it', created_at: half, maintenance: [{ start: half - HOUR, end: to }] }),
    ], to);
    expect(report.never_ran).toEqual([{ id: 2, name: 'partly' }]);
  });

  it('reads the windows of a monitor as their union: the same covered time, in order, each moment once', () => {
    const windows = [
      [{ start: from, end: from + HOUR }, { start: from + 3 * HOUR, end: from + 4 * HOUR }],
      [{ start: from + 30 * MIN, end: from + 2 * HOUR }, { start: from + 4 * HOUR, end: from + 5 * HOUR }],
    ];
    const union = unionOfSpans(windows);
    expect(union).toEqual([{ start: from, end: from + 2 * HOUR }, { start: from + 3 * HOUR, end: from + 5 * HOUR }]);
    // The lists are left as they were (each window's occurrences serve every monitor it covers).
    expect(windows[0]![0]).toEqual({ start: from, end: from + HOUR });
    const failedAll = [{ at: from, kind: 'failed' as const, reason: 'missed' as const }];
    expect(downtimeIn(failedAll, true, from, to, coverageOf(union))).toBe(downtimeIn(failedAll, true, from, to, coverageOf(windows.flat())));
  });

  it('counts downtime less maintenance as the whole sweep over the windows does, for any windows and stretches', () => {
    // The sweep the report read every stretch with before (each stretch sorted every occurrence again).
    const sweep = (spans: Array<{ start: number; end: number }>, a: number, b: number) => {
      let covered = 0;
      let reached = a;
      for (const span of [...spans].sort((x, y) => x.start - y.start)) {
        const start = Math.max(span.start, reached);
        const end = Math.min(span.end, b);
        if (end > start) {
          covered += end - start;
          reached = end;
        }
      }
      return covered;
    };
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 48271) % 2147483647) % n);
    for (let round = 0; round < 200; round++) {
      const spans = Array.from({ length: random(30) }, () => {
        const start = from - HOUR + random(26 * 60) * MIN;
        return { start, end: start + (1 + random(180)) * MIN };
      });
      const moments = Array.from({ length: random(12) }, () => from + random(24 * 60) * MIN).sort((a, b) => a - b);
      const events = moments.map((at, i) => ({ at, kind: i % 2 === 0 ? ('failed' as const) : ('recovered' as const), reason: null }));
      let expected = 0;
      for (let i = 0; i < moments.length; i += 2) {
        const until = moments[i + 1] ?? to;
        expected += until - moments[i]! - sweep(spans, moments[i]!, until);
      }
      expect(downtimeIn(events, false, from, to, coverageOf(spans)), `round ${round}`).toBe(expected);
    }
  });

  it('reads as plain text with the period in the zone', () => {
    const report = buildReport({ frequency: 'daily', time: '08:00', timezone: 'Europe/Berlin' }, { from: at('2026-11-26T07:00:00Z'), to: at('2026-11-27T07:00:00Z') }, [
      monitor({ name: 'nightly-backup', runs: 30, failures: 2, longest_run_ms: 243_000, created_at: 0 }),
      monitor({ id: 2, name: 'db-vacuum', created_at: 0, failing: { since: at('2026-11-27T02:00:00Z'), reason: 'missed' }, events: [{ at: at('2026-11-27T02:00:00Z'), kind: 'failed', reason: 'missed' }] }),
    ], at('2026-11-27T07:00:10Z'));
    const m = reportMessage(report, 'https://cron.example.com/');
    expect(reportText(m, m.items.length)).toBe(
      [
        'Daily report: 2 monitors, 1 failing now',
        'Thu 26 Nov 08:00 – Fri 27 Nov 08:00 Europe/Berlin',
        '30 runs, 2 failed, 1 missed, 1 never ran',
        '',
        'Failing now:',
        'db-vacuum: missed since Fri 27 Nov 03:00 Europe/Berlin',
        '',
        'Never ran in this period:',
        'db-vacuum',
        '',
        'Each monitor (worst first):',
        'db-vacuum: 0 runs, 0 failed, 1 missed, 79.16% up',
        'nightly-backup: 30 runs, 2 failed, 0 missed, longest 4 min 3 s, 100.00% up',
        '',
        'Open: https://cron.example.com/#/monitors',
      ].join('\n'),
    );
    // Cut after db-vacuum's two lines: one monitor is not named at all (a monitor has a line in each of its sections, so lines are no count of monitors).
    const cut = reportText(m, 2);
    expect(cut).toContain('… and 1 more monitor: https://cron.example.com/#/monitors');
    // Cut where every monitor left out was named already: no count that would read as monitors unseen.
    const onlyVacuum = reportMessage({ ...report, monitors: report.monitors.filter((l) => l.name === 'db-vacuum'), totals: { ...report.totals, monitors: 1 } }, 'https://cron.example.com/');
    expect(reportText(onlyVacuum, 1)).toContain('\n… and more: https://cron.example.com/#/monitors');
  });
});
