import { describe, expect, it } from 'vitest';
import { QUIET_CHANGE_RETENTION_DAYS, quietChangesPruneBefore } from '../../../agent/domain/alerts/quietChangeRetention';
import { lastReportPeriod, type ReportSchedule } from '../../../agent/domain/reports/period';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];

/** How far after the cut-off at `now` the period a report made at `now` reads starts. */
const margin = (schedule: ReportSchedule, now: number) => lastReportPeriod(schedule, now)!.from - quietChangesPruneBefore(now);

describe('which quiet changes are old enough to go', () => {
  it('those past the retention period', () => {
    const now = Date.UTC(2026, 10, 28);
    expect(quietChangesPruneBefore(now)).toBe(now - QUIET_CHANGE_RETENTION_DAYS * DAY);
  });

  it('never one a report made at that moment reads: the furthest back, a month before last sent late, starts a month after the cut-off', () => {
    // A monthly report made just before a 1st's report time (an agent down through the last one)
    // covers the month before last: after two 31-day months (July and August, December and
    // January), across the zones' first and last report times, each side of the date line.
    let nearest = Infinity;
    for (const timezone of ZONES) {
      for (const time of ['00:00', '23:59']) {
        for (const first of [Date.UTC(2026, 8, 1), Date.UTC(2027, 1, 1)]) {
          for (let now = first - 2 * DAY; now < first + 2 * DAY; now += 4 * HOUR) nearest = Math.min(nearest, margin({ frequency: 'monthly', time, timezone }, now));
        }
      }
    }
    expect(nearest).toBeGreaterThanOrEqual(30 * DAY);
    expect(nearest).toBeLessThan(32 * DAY); // the search did reach a month before last
  });

  it('nor one a daily or a weekly report reads', () => {
    for (const frequency of ['daily', 'weekly'] as const) {
      for (const timezone of ZONES) expect(margin({ frequency, time: '23:59', timezone }, Date.UTC(2026, 10, 28, 12))).toBeGreaterThan(70 * DAY);
    }
  });
});
