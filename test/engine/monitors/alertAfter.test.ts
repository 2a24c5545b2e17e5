import { afterEach, describe, expect, it } from 'vitest';
import type { Alert } from '../../../agent/domain/alerts/alert';
import { whatHappened } from '../../../agent/domain/alerts/words';
import { monitorStatus } from '../../../agent/domain/monitors/status';
import { alertMessage, OUTPUT_BOUNDS } from '../../../agent/domain/alerts/messageLimits';
import { emailSubject } from '../../../agent/engine/delivery/kinds/email';
import { tempDir } from '../../helpers/testAgent';
import type { MonitorRow } from '../../../agent/db/monitors';
import { presentMonitor } from '../../../agent/api/present/present';
import { windowOf } from '../../../agent/db/maintenanceWindows';
import { replanAfterWindowChange } from '../../../agent/engine/monitors/maintenance';
import { at, engineFixture } from '../engineFixture';

// Alert after N failures on timelines: the loop steps every 30 s as the clock moves, the job
// reports (or does not) at chosen times, and the alerts raised are read back.

let fixture: ReturnType<typeof engineFixture>;
afterEach(() => fixture?.close());

const MINUTE = 60_000;
/** The monitor as the API shows it (its alert_reason words are made from its reason data). */
const shown = (row: MonitorRow) => presentMonitor(row, 'http://127.0.0.1', null);
const alerts = () => fixture.notifications().map((n) => n.alert as Alert);
const said = () => alerts().map((a) => `${a.event} ${a.at.slice(11, 16)}`);

/** An every-ten-minutes monitor (grace 1 min) made at 12:55 that alerts after `n` failures in a row. */
function monitorAlertingAfter(n: number) {
  const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
  expect(fixture.store.monitorAlerting.setAlertAfter(1, monitor.id, n, at('2026-11-27T12:55:00Z'))).toBe(true);
  return monitor;
}

/**
 * The loop every 30 s from `from` to `to`; `pulses` ("HH:MM:SS kind", today) sent on the way. A
 * pulse is a run's end: success, or fail with exit 2.
 */
async function walk(token: string, from: string, to: string, pulses: string[] = []) {
  const day = '2026-11-27T';
  const queue = pulses.map((p) => ({ at: at(`${day}${p.split(' ')[0]}Z`), kind: p.split(' ')[1] as 'success' | 'fail' }));
  for (let now = at(`${day}${from}Z`); now <= at(`${day}${to}Z`); now += MINUTE / 2) {
    while (queue.length > 0 && queue[0].at <= now) {
      const pulse = queue.shift()!;
      await fixture.pulse(token, pulse.at, { kind: pulse.kind, exitCode: pulse.kind === 'fail' ? 2 : 0 });
    }
    await fixture.step(now);
  }
}

describe('a monitor that alerts after 3 failures in a row', () => {
  it('is failed from the first miss, keeps watching, and alerts at the third with every due time (misses and a reported failure mixed)', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = monitorAlertingAfter(3);
    await walk(monitor.token, '12:55:00', '13:02:00');
    // The dashboard shows the truth at once; nobody is told yet.
    const first = fixture.reload(monitor.id);
    expect(monitorStatus(first)).toBe('failed');
    expect(shown(first).alert_reason).toContain('13:00');
    expect(said()).toEqual([]);
    expect(fixture.notifier.popups).toEqual([]);

    // The 13:10 run comes and says it failed: the second in a row.
    await walk(monitor.token, '13:02:30', '13:12:00', ['13:10:20 fail']);
    expect(said()).toEqual([]);
    expect(shown(fixture.reload(monitor.id)).alert_reason).toBe('Failed: the job exited with code 2');

    // The 13:20 run never comes: the third, alerted at its deadline.
    await walk(monitor.token, '13:12:30', '13:25:00');
    expect(said()).toEqual(['monitor.failed 13:21']);
    const [alert] = alerts();
    expect(alert.reason).toMatchObject({
      kind: 'failed_times',
      times: 3,
      runs: ['2026-11-27T13:00:00.000000Z', '2026-11-27T13:10:00.000000Z', '2026-11-27T13:20:00.000000Z'],
      last: { kind: 'missed', expected_at: '2026-11-27T13:20:00.000000Z' },
    });
    expect(whatHappened(alert, { adminZone: 'UTC' })).toBe(
      'Went wrong 3 times in a row (runs due Fri 27 Nov 13:00, 13:10, 13:20 UTC). Last: Missed: the run due Fri 27 Nov 13:20 UTC did not come (grace 1 min); last run Fri 27 Nov 13:10 UTC.',
    );
    expect(fixture.notifier.popups.map((p) => p.title)).toEqual(['✗ backup went wrong 3 times in a row']);
    expect(fixture.notifications()[0].data.description).toContain('Went wrong 3 times in a row (runs due 2026-11-27 13:00 UTC, 2026-11-27 13:10 UTC, 2026-11-27 13:20 UTC)');

    // Alerted: nothing more until a success, which recovers it.
    await walk(monitor.token, '13:25:30', '13:45:00', ['13:40:20 success']);
    expect(said()).toEqual(['monitor.failed 13:21', 'monitor.recovered 13:40']);
    expect(monitorStatus(fixture.reload(monitor.id))).toBe('monitoring');
  });

  it('alerts at the third reported failure in a row, from the pulse', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = monitorAlertingAfter(3);
    await walk(monitor.token, '12:55:00', '13:25:00', ['13:00:20 fail', '13:10:20 fail', '13:20:20 fail']);
    expect(said()).toEqual(['monitor.failed 13:20']);
    expect(alerts()[0].reason).toMatchObject({ kind: 'failed_times', times: 3, last: { kind: 'failed', exit_code: 2 } });
    expect(alerts()[0].run).toMatchObject({ exit_code: 2 });
  });

  it('starts again from one after a success, whose recovery is not told (nothing was)', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = monitorAlertingAfter(3);
    // Missed 13:00, failed 13:10, fine 13:20, missed 13:30 and 13:40: never three in a row.
    await walk(monitor.token, '12:55:00', '13:45:00', ['13:10:20 fail', '13:20:20 success']);
    expect(said()).toEqual([]);
    expect(fixture.reload(monitor.id).failures).toBe(JSON.stringify([at('2026-11-27T13:30:00Z'), at('2026-11-27T13:40:00Z')]));
    // 13:50 missed too: three in a row since the success.
    await walk(monitor.token, '13:45:30', '13:55:00');
    expect(said()).toEqual(['monitor.failed 13:51']);
    expect((alerts()[0].reason as { runs: string[] }).runs.map((r) => r.slice(11, 16))).toEqual(['13:30', '13:40', '13:50']);
  });

  it('keeps its count across a restart (the SQLite file closed and opened again)', async () => {
    const dir = tempDir('cronbeat-alert-after-');
    fixture = engineFixture(at('2026-11-27T12:55:00Z'), dir);
    const monitor = monitorAlertingAfter(3);
    await walk(monitor.token, '12:55:00', '13:12:00', ['13:10:20 fail']);
    fixture.store.close();

    fixture = engineFixture(at('2026-11-27T13:12:30Z'), dir);
    expect(fixture.reload(monitor.id).alert_after).toBe(3);
    await walk(monitor.token, '13:12:30', '13:25:00');
    expect(said()).toEqual(['monitor.failed 13:21']);
    expect(alerts()[0].reason).toMatchObject({ kind: 'failed_times', times: 3 });
  });

  it('does not count runs due in a maintenance window', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = monitorAlertingAfter(3);
    fixture.store.maintenanceWindows.create(
      1,
      { name: 'upgrade', startsAt: at('2026-11-27T13:05:00Z'), endsAt: at('2026-11-27T13:25:00Z'), schedule: null, timezone: null, durationMinutes: null, monitorIds: [], tags: [] },
      at('2026-11-27T12:55:00Z'),
    );
    // Missed 13:00 (one), 13:10 and 13:20 in the window (not counted), 13:30 (two), 13:40 (three).
    await walk(monitor.token, '12:55:00', '13:35:00');
    expect(said()).toEqual([]);
    await walk(monitor.token, '13:35:30', '13:45:00');
    expect(said()).toEqual(['monitor.failed 13:41']);
    expect((alerts()[0].reason as { runs: string[] }).runs.map((r) => r.slice(11, 16))).toEqual(['13:00', '13:30', '13:40']);
  });

  it('a success in a window ends the streak, so a later miss is the first again', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = monitorAlertingAfter(2);
    fixture.store.maintenanceWindows.create(
      1,
      { name: 'upgrade', startsAt: at('2026-11-27T13:05:00Z'), endsAt: at('2026-11-27T13:25:00Z'), schedule: null, timezone: null, durationMinutes: null, monitorIds: [], tags: [] },
      at('2026-11-27T12:55:00Z'),
    );
    // Missed 13:00 (one); the 13:10 and 13:20 runs succeed in the window; 13:30 is missed: one again, not two in a row.
    await walk(monitor.token, '12:55:00', '13:35:00', ['13:10:20 success', '13:20:20 success']);
    expect(said()).toEqual([]);
    expect(shown(fixture.reload(monitor.id)).failures_in_a_row).toBe(1);
    await walk(monitor.token, '13:35:30', '13:45:00');
    expect(said()).toEqual(['monitor.failed 13:41']);
    expect((alerts()[0].reason as { runs: string[] }).runs.map((r) => r.slice(11, 16))).toEqual(['13:30', '13:40']);
  });

  it('a window removed early while it still counts: it waits for its next run, which counts', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = monitorAlertingAfter(2);
    const window = fixture.store.maintenanceWindows.create(
      1,
      { name: 'upgrade', startsAt: at('2026-11-27T13:05:00Z'), endsAt: at('2026-11-27T15:00:00Z'), schedule: null, timezone: null, durationMinutes: null, monitorIds: [], tags: [] },
      at('2026-11-27T12:55:00Z'),
    );
    await walk(monitor.token, '12:55:00', '13:32:00');
    expect(fixture.reload(monitor.id).expected_run_at).toBe(at('2026-11-27T15:00:00Z'));
    // The work is done at 13:32: the window goes, and the 13:40 run is awaited (and missed: the second).
    fixture.store.maintenanceWindows.delete(1, window.id);
    expect(replanAfterWindowChange(fixture, 1, windowOf(window), at('2026-11-27T13:32:00Z')).map((m) => m.id)).toEqual([monitor.id]);
    await walk(monitor.token, '13:32:30', '13:45:00');
    expect(said()).toEqual(['monitor.failed 13:41']);
  });

  it('counts a stuck run once, then the runs after it', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1, maxRuntime: 5 });
    fixture.store.monitorAlerting.setAlertAfter(1, monitor.id, 2, at('2026-11-27T12:55:00Z'));
    await fixture.pulse(monitor.token, at('2026-11-27T13:00:10Z'), { kind: 'start', rid: 'r1' });
    await walk(monitor.token, '13:00:30', '13:09:00');
    expect(monitorStatus(fixture.reload(monitor.id))).toBe('failed');
    expect(said()).toEqual([]);
    await walk(monitor.token, '13:09:30', '13:12:00');
    expect(said()).toEqual(['monitor.failed 13:11']);
    expect(alerts()[0].reason).toMatchObject({ kind: 'failed_times', times: 2, last: { kind: 'missed' } });
  });
});

describe('a stuck run reported failed late', () => {
  it('counts once: its late failure is the run it started for, not a second failure', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5, maxRuntime: 20 });
    fixture.store.monitorAlerting.setAlertAfter(1, monitor.id, 2, at('2026-11-27T12:55:00Z'));
    // The 13:00 run starts at 13:00:10, is stuck at 13:20:10 (one), then ends failed at 13:35: still that one run.
    await fixture.pulse(monitor.token, at('2026-11-27T13:00:10Z'), { kind: 'start' });
    await walk(monitor.token, '13:00:30', '13:40:00', ['13:35:00 fail']);
    expect(said()).toEqual([]);
    expect(shown(fixture.reload(monitor.id)).failures_in_a_row).toBe(1);
    // The 14:00 run does not come: the second in a row.
    await walk(monitor.token, '13:40:30', '14:06:00');
    expect(said()).toEqual(['monitor.failed 14:05']);
    expect((alerts()[0].reason as { runs: string[] }).runs.map((r) => r.slice(11, 16))).toEqual(['13:00', '14:00']);
  });
});

describe('overlapping runs told apart by their rid', () => {
  it('a run that ends after the next one started counts for its own run, so two failed runs in a row are two', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    fixture.store.monitorAlerting.setAlertAfter(1, monitor.id, 2, at('2026-11-27T12:55:00Z'));
    // The 13:00 run takes 70 minutes; the 14:00 run starts beside it. Both fail.
    await fixture.pulse(monitor.token, at('2026-11-27T13:00:05Z'), { kind: 'start', rid: 'a' });
    await fixture.pulse(monitor.token, at('2026-11-27T14:00:05Z'), { kind: 'start', rid: 'b' });
    await fixture.pulse(monitor.token, at('2026-11-27T14:10:05Z'), { kind: 'fail', rid: 'a', exitCode: 1 });
    expect(said()).toEqual([]);
    await fixture.pulse(monitor.token, at('2026-11-27T14:20:05Z'), { kind: 'fail', rid: 'b', exitCode: 1 });
    expect(said()).toEqual(['monitor.failed 14:20']);
    expect((alerts()[0].reason as { runs: string[] }).runs.map((r) => r.slice(11, 16))).toEqual(['13:00', '14:00']);
  });
});

describe('a monitor that alerts after 1 failure (the default)', () => {
  it('alerts at the first miss as always, with its own reason', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    expect(monitor.alert_after).toBe(1);
    await walk(monitor.token, '12:55:00', '13:25:00');
    expect(said()).toEqual(['monitor.failed 13:01']);
    expect(alerts()[0].reason.kind).toBe('missed');
  });
});

describe('the words of the third failure in a row, on the channels', () => {
  it('an email subject counts them; no separate "Expected" line repeats the missed run', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = monitorAlertingAfter(3);
    await walk(monitor.token, '12:55:00', '13:25:00');
    const [alert] = alerts();
    const message = alertMessage(alert, { type: 'monitor', type_id: monitor.id }, { adminZone: 'UTC', publicUrl: 'http://127.0.0.1:8787' }, OUTPUT_BOUNDS.email);
    expect(emailSubject(alert, message)).toBe('MISSED | backup (3 times in a row)');
    expect(message.title).toBe('backup went wrong 3 times in a row');
    expect(message.facts.join('\n')).not.toContain('Expected');
  });
});
