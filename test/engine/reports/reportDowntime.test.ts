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
