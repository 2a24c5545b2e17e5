import { afterEach, describe, expect, it } from 'vitest';
import { sendDueReports } from '../../../agent/engine/reports/sendReports';
import { pauseMonitor, resumeMonitor } from '../../../agent/engine/monitors/monitorEdits';
import { REPORT_NOTIFICATION_TYPE } from '../../../agent/domain/alerts/notificationKinds';
import type { ReportData } from '../../../agent/domain/reports/numbers';
import { at, engineFixture } from '../engineFixture';

/*
 * A report's downtime is the time the monitor's status said failed. A pause acknowledges a failure
 * without a recovery notification (docs/monitoring.md), and the report counts paused time as up
 * (docs/channels.md): the failed stretch ends at the pause. A failure not alerted yet (alert after
 * N) has no notification either: its stretch starts when the monitor turned failed.
 */

let fixture: ReturnType<typeof engineFixture> | undefined;
afterEach(() => {
  fixture?.close();
  fixture = undefined;
});

const ctx = (f: NonNullable<typeof fixture>) => ({ store: f.store, events: f.events, adminZone: 'UTC' });
const lastReport = (f: NonNullable<typeof fixture>) =>
  JSON.parse(
    f.store.db.prepare('SELECT data FROM notifications WHERE type = ? ORDER BY rowid DESC LIMIT 1').pluck().get(REPORT_NOTIFICATION_TYPE) as string,
  ) as ReportData;

/** A fresh store from the 25th, 10:00 (`start`), with a channel that gets a daily report at 08:00 UTC. */
function withDailyReport() {
  const start = at('2026-11-25T10:00:00Z');
  const f = engineFixture(start);
  fixture = f;
  f.store.channels.create({ companyId: 1, name: 'hook', kind: 'webhook', settings: { url: 'http://127.0.0.1:9/hook', secret: 'x'.repeat(16), report: 'daily', report_time: '08:00', report_timezone: 'UTC' }, quietHours: null, now: start });
  return { f, start };
}

/** An hourly monitor (5 minutes of grace) made at `madeAt` that alerts after `times` failures, before any report: the first report time is not due yet. */
async function hourlyAlertingAfter(times: number, madeAt: string) {
  const { f, start } = withDailyReport();
  const monitor = f.monitor({ name: 'hourly', schedule: '0 * * * *', duration: 5, now: at(madeAt) });
  f.store.monitorAlerting.setAlertAfter(1, monitor.id, times, at(madeAt));
  expect(await sendDueReports(ctx(f), start)).toBe(0);
  return { f, monitor };
}

async function failedAtThree() {
  const { f, start } = withDailyReport();
  // Runs at 03:00 every day, 10 minutes to come: missed on the 26th, failed at 03:10:30.
  const monitor = f.monitor({ name: 'nightly', schedule: '0 3 * * *', duration: 10, now: start });
  expect(await sendDueReports(ctx(f), start)).toBe(0);
  await f.step(at('2026-11-26T03:10:30Z'));
  expect(f.reload(monitor.id).is_alerted).toBe(1);
  return monitor;
}

describe('a report of a monitor paused while failed', () => {
  it('ends its downtime at the pause', async () => {
    const monitor = await failedAtThree();
    pauseMonitor(ctx(fixture!), 1, monitor.id, null, at('2026-11-26T04:10:30Z'));
    expect(await sendDueReports(ctx(fixture!), at('2026-11-26T08:00:00Z'))).toBe(1);
    const line = lastReport(fixture!).monitors.find((m) => m.id === monitor.id)!;
    // Failed 03:10:30 to 04:10:30: one hour of the 22 h it existed in the period.
    expect(line).toMatchObject({ downtime_ms: 3_600_000, uptime_percent: 95.45, paused: true });
  });

  it('ends it at the pause when it was resumed before the report', async () => {
    const monitor = await failedAtThree();
    pauseMonitor(ctx(fixture!), 1, monitor.id, null, at('2026-11-26T04:10:30Z'));
    resumeMonitor(ctx(fixture!), 1, monitor.id, at('2026-11-26T05:10:00Z'));
    expect(await sendDueReports(ctx(fixture!), at('2026-11-26T08:00:00Z'))).toBe(1);
    const line = lastReport(fixture!).monitors.find((m) => m.id === monitor.id)!;
    expect(line).toMatchObject({ downtime_ms: 3_600_000, paused: false });
  });

  it('counts a pause of a monitor that was not failed as no downtime', async () => {
    const { f, start } = withDailyReport();
    const monitor = f.monitor({ name: 'nightly', schedule: '0 3 * * *', duration: 10, now: start });
    expect(await sendDueReports(ctx(f), start)).toBe(0);
    pauseMonitor(ctx(f), 1, monitor.id, null, at('2026-11-25T20:00:00Z'));
    expect(await sendDueReports(ctx(f), at('2026-11-26T08:00:00Z'))).toBe(1);
    expect(lastReport(f).monitors.find((m) => m.id === monitor.id)).toMatchObject({ downtime_ms: 0, paused: true });
  });

  it('leaves a monitor paused in the period out of "never ran", though it is resumed by the report', async () => {
    const { f, start } = withDailyReport();
    const wholeDay = f.monitor({ name: 'paused-all-day', schedule: '0 3 * * *', duration: 10, now: start });
    const anHour = f.monitor({ name: 'paused-an-hour', schedule: '0 3 * * *', duration: 10, now: start });
    const idle = f.monitor({ name: 'idle', schedule: '0 3 * * *', duration: 10, now: start });
    expect(await sendDueReports(ctx(f), start)).toBe(0);
    pauseMonitor(ctx(f), 1, wholeDay.id, null, at('2026-11-25T10:30:00Z'));
    resumeMonitor(ctx(f), 1, wholeDay.id, at('2026-11-26T07:30:00Z'));
    pauseMonitor(ctx(f), 1, anHour.id, null, at('2026-11-26T02:30:00Z'));
    resumeMonitor(ctx(f), 1, anHour.id, at('2026-11-26T03:30:00Z'));
    expect(await sendDueReports(ctx(f), at('2026-11-26T08:00:00Z'))).toBe(1);
    expect(lastReport(f).never_ran.map((m) => m.id)).toEqual([idle.id]);
  });
});

describe('a report of a monitor failed but not alerted yet', () => {
  it('counts it down from when it turned failed, not the whole period', async () => {
    const { f, monitor } = await hourlyAlertingAfter(3, '2026-11-26T05:30:00Z');
    await f.pulse(monitor.token, at('2026-11-26T06:00:10Z'));
    // The 07:00 run does not come: failed at 07:05:30, the first of three, so nothing is sent.
    await f.step(at('2026-11-26T07:05:30Z'));
    expect(f.reload(monitor.id)).toMatchObject({ is_alerted: 1, alert_sent: 0 });
    expect(await sendDueReports(ctx(f), at('2026-11-26T08:00:00Z'))).toBe(1);
    const report = lastReport(f);
    // 54.5 min failed of the 2.5 h it existed.
    expect(report.monitors.find((m) => m.id === monitor.id)).toMatchObject({ downtime_ms: 3_270_000, uptime_percent: 63.66 });
    expect(report.failing_now.map((f) => f.id)).toEqual([monitor.id]);
  });
});

describe('a report of a monitor that failed short of its alert after N and recovered', () => {
  it('counts the time its status said failed, missed or reported, as a hand count does', async () => {
    const { f, monitor: reported } = await hourlyAlertingAfter(3, '2026-11-26T01:30:00Z');
    const missed = f.monitor({ name: 'missed', schedule: '0 * * * *', duration: 5, now: at('2026-11-26T01:30:00Z') });
    f.store.monitorAlerting.setAlertAfter(1, missed.id, 3, at('2026-11-26T01:30:00Z'));
    for (const hour of ['02', '03', '04', '05', '06', '07']) {
      const fails = hour === '03' || hour === '04';
      await f.pulse(reported.token, at(`2026-11-26T${hour}:00:10Z`), fails ? { kind: 'fail', exitCode: 1 } : {});
      // The other's 03:00 run never comes: failed at 03:05:30, the first of three.
      if (hour === '03') await f.step(at('2026-11-26T03:05:30Z'));
      else await f.pulse(missed.token, at(`2026-11-26T${hour}:00:10Z`), fails ? { kind: 'fail', exitCode: 1 } : {});
    }
    // Neither reached its third failure: nothing alerted.
    expect(f.store.notifications.page(1, 100, 0)).toHaveLength(0);
    expect(await sendDueReports(ctx(f), at('2026-11-26T08:00:00Z'))).toBe(1);
    const lines = lastReport(f).monitors;
    // By hand: failed 03:00:10 to 05:00:10 of the 6.5 h it existed.
    expect(lines.find((m) => m.id === reported.id)).toMatchObject({ runs: 6, failures: 2, missed: 0, downtime_ms: 7_200_000, uptime_percent: 69.23 });
    // Failed 03:05:30 to 05:00:10; no missed-run alert was raised.
    expect(lines.find((m) => m.id === missed.id)).toMatchObject({ runs: 5, failures: 1, missed: 0, downtime_ms: 6_880_000 });
  });
});

describe('a report of a monitor failed across a maintenance window', () => {
  it('counts the time in the window as up, as Uptime Kuma does', async () => {
    const monitor = await failedAtThree();
    // Every night 04:00-06:00 for this monitor, and a one-off 05:00-06:30 for every monitor (overlapping: counted once).
    const fields = { startsAt: null, endsAt: null, schedule: null, timezone: null, durationMinutes: null, monitorIds: [], tags: [] };
    fixture!.store.maintenanceWindows.create(1, { ...fields, name: 'nightly', schedule: '0 4 * * *', timezone: 'UTC', durationMinutes: 120, monitorIds: [monitor.id] }, at('2026-11-25T10:00:00Z'));
    fixture!.store.maintenanceWindows.create(1, { ...fields, name: 'upgrade', startsAt: at('2026-11-26T05:00:00Z'), endsAt: at('2026-11-26T06:30:00Z') }, at('2026-11-25T10:00:00Z'));
    // A window for another monitor only changes nothing here.
    fixture!.store.maintenanceWindows.create(1, { ...fields, name: 'other', schedule: '0 0 * * *', timezone: 'UTC', durationMinutes: 600, monitorIds: [monitor.id + 1] }, at('2026-11-25T10:00:00Z'));
    expect(await sendDueReports(ctx(fixture!), at('2026-11-26T08:00:00Z'))).toBe(1);
    const report = lastReport(fixture!);
    // Failed 03:10:30 to 08:00, in maintenance 04:00 to 06:30: 2 h 19.5 min down.
    expect(report.monitors.find((m) => m.id === monitor.id)).toMatchObject({ downtime_ms: 8_370_000 });
    // It is failed all the same.
    expect(report.failing_now.map((f) => f.id)).toEqual([monitor.id]);
  });
});

describe('the missed count of a monitor that alerts after N failures', () => {
  it('counts the alert of runs missed in a row as a missed run', async () => {
    const { f, monitor } = await hourlyAlertingAfter(2, '2026-11-26T04:30:00Z');
    await f.pulse(monitor.token, at('2026-11-26T05:00:10Z'));
    // 06:00 and 07:00 do not come: the second miss alerts, "went wrong twice in a row", the last one missed.
    await f.step(at('2026-11-26T06:05:30Z'));
    await f.step(at('2026-11-26T07:05:30Z'));
    expect(f.reload(monitor.id)).toMatchObject({ is_alerted: 1, alert_sent: 1 });
    expect(await sendDueReports(ctx(f), at('2026-11-26T08:00:00Z'))).toBe(1);
    const report = lastReport(f);
    expect(report.monitors.find((m) => m.id === monitor.id)).toMatchObject({ runs: 1, failures: 0, missed: 1 });
    expect(report.totals.missed).toBe(1);
  });
});

describe('a report of a flapping monitor', () => {
  it('counts every failed stretch, those flapping kept quiet too, as a hand count of its runs does', async () => {
    const { f, start } = withDailyReport();
    // Daily at noon: no run is due before the report, so only the job's pulses change it.
    const monitor = f.monitor({ name: 'flappy', schedule: '0 12 * * *', duration: 5, now: at('2026-11-26T00:30:00Z') });
    expect(await sendDueReports(ctx(f), start)).toBe(0);
    // Fails and recovers four times, ten minutes each time: the fifth change flaps, the rest are quiet.
    const times = ['01:00', '01:10', '01:20', '01:30', '01:40', '01:50', '02:00', '02:10'];
    for (const [i, time] of times.entries()) {
      await f.pulse(monitor.token, at(`2026-11-26T${time}:00Z`), i % 2 === 0 ? { kind: 'fail', exitCode: 1 } : {});
    }
    expect(f.reload(monitor.id).steady_at).not.toBeNull();
    // An hour without a change: steady, and fine.
    await f.step(at('2026-11-26T03:10:00Z'));
    expect(await sendDueReports(ctx(f), at('2026-11-26T08:00:00Z'))).toBe(1);
    // By hand: 01:00-01:10, 01:20-01:30, 01:40-01:50, 02:00-02:10 failed, 40 min of the 7.5 h it existed.
    expect(lastReport(f).monitors.find((m) => m.id === monitor.id)).toMatchObject({ runs: 8, failures: 4, missed: 0, downtime_ms: 2_400_000, uptime_percent: 91.11 });
  });
});

describe('reports of a flapping monitor across a daylight-saving night', () => {
  it('give the daily, weekly and monthly figures a hand count of its runs gives, over days of 25 hours', async () => {
    const start = at('2026-09-30T10:00:00Z');
    const f = engineFixture(start);
    fixture = f;
    const channelIds = (['daily', 'weekly', 'monthly'] as const).map(
      (report) =>
        f.store.channels.create({ companyId: 1, name: report, kind: 'webhook', settings: { url: 'http://127.0.0.1:9/hook', secret: 'x'.repeat(16), report, report_time: '08:00', report_timezone: 'Europe/Berlin' }, quietHours: null, now: start }).id,
    );
    // Due on New Year's Day only: nothing is missed in October, only the job's pulses change it.
    const monitor = f.monitor({ name: 'flappy', schedule: '0 12 1 1 *', duration: 5, now: start });
    expect(await sendDueReports(ctx(f), start)).toBe(0);
    // Berlin's clocks go back at 03:00 CEST (01:00 UTC) on Sunday the 25th: the night has 02:00-03:00 twice.
    const pulses: Array<[string, boolean]> = [['00:00', false], ['00:10', true], ['00:20', false], ['00:30', true], ['00:40', false], ['00:50', true], ['00:55', false], ['01:20', true]];
    for (const [time, ok] of pulses) await f.pulse(monitor.token, at(`2026-10-25T${time}:00Z`), ok ? {} : { kind: 'fail', exitCode: 1 });
    expect(f.reload(monitor.id).steady_at).not.toBeNull();
    await f.step(at('2026-10-25T02:30:00Z'));
    const reportOf = (channelId: number) =>
      JSON.parse(
        f.store.db
          .prepare('SELECT n.data FROM notifications n JOIN deliveries d ON d.notification_id = n.id WHERE n.type = ? AND d.channel_id = ? ORDER BY n.rowid DESC LIMIT 1')
          .pluck()
          .get(REPORT_NOTIFICATION_TYPE, channelId) as string,
      ) as ReportData;
    // By hand: failed 10 + 10 + 10 + 25 minutes (the last across the switch); 8 runs, 4 of them failures.
    const figures = { runs: 8, failures: 4, missed: 0, downtime_ms: 3_300_000 };
    // 08:00 in Berlin is 07:00 UTC after the switch, 06:00 before.
    // (Each call sends the other channels' last periods too, the first time.)
    expect(await sendDueReports(ctx(f), at('2026-10-25T07:00:00Z'))).toBeGreaterThanOrEqual(1);
    const daily = reportOf(channelIds[0]!);
    expect(daily).toMatchObject({ from: at('2026-10-24T06:00:00Z'), to: at('2026-10-25T07:00:00Z'), totals: { monitors: 1, runs: 8, failures: 4, missed: 0, failing_now: 0, never_ran: 0 } });
    // 55 minutes of 25 hours.
    expect(daily.monitors[0]).toMatchObject({ ...figures, uptime_percent: 96.33 });
    expect(await sendDueReports(ctx(f), at('2026-10-26T07:00:00Z'))).toBe(2);
    const weekly = reportOf(channelIds[1]!);
    expect(weekly).toMatchObject({ from: at('2026-10-19T06:00:00Z'), to: at('2026-10-26T07:00:00Z') });
    // Of 169 hours.
    expect(weekly.monitors[0]).toMatchObject({ ...figures, uptime_percent: 99.45 });
    expect(await sendDueReports(ctx(f), at('2026-11-01T07:00:00Z'))).toBeGreaterThanOrEqual(1);
    const monthly = reportOf(channelIds[2]!);
    expect(monthly).toMatchObject({ from: at('2026-10-01T06:00:00Z'), to: at('2026-11-01T07:00:00Z') });
    // Of 745 hours.
    expect(monthly.monitors[0]).toMatchObject({ ...figures, uptime_percent: 99.87 });
  });
});
