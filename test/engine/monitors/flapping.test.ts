import { afterEach, describe, expect, it } from 'vitest';
import type { Alert } from '../../../agent/domain/alerts/alert';
import { whatHappened } from '../../../agent/domain/alerts/words';
import { tempDir } from '../../helpers/testAgent';
import { presentMonitor } from '../../../agent/api/present/present';
import { at, engineFixture } from '../engineFixture';
import { windowOf } from '../../../agent/db/maintenanceWindows';
import { replanAfterWindowChange } from '../../../agent/engine/monitors/maintenance';

// Flapping on timelines: a job that fails and succeeds in turn, the loop stepping every 30 s.

let fixture: ReturnType<typeof engineFixture>;
afterEach(() => fixture?.close());

const MINUTE = 60_000;
const day = '2026-11-27T';
const alerts = () => fixture.notifications().map((n) => n.alert as Alert);
const said = () => alerts().map((a) => `${a.event} ${a.at.slice(11, 16)}`);

/** The loop every 30 s from `from` to `to`, the job ending each run of `pulses` ("HH:MM:SS success|fail") on the way. */
async function walk(token: string, from: string, to: string, pulses: string[] = []) {
  const queue = pulses.map((p) => ({ at: at(`${day}${p.split(' ')[0]}Z`), kind: p.split(' ')[1] as 'success' | 'fail' }));
  for (let now = at(`${day}${from}Z`); now <= at(`${day}${to}Z`); now += MINUTE / 2) {
    while (queue.length > 0 && queue[0].at <= now) {
      const pulse = queue.shift()!;
      await fixture.pulse(token, pulse.at, { kind: pulse.kind, exitCode: pulse.kind === 'fail' ? 1 : 0 });
    }
    await fixture.step(now);
  }
}

/** Failed, fine, failed, fine, failed from 13:00 to 13:40: five changes within the hour. */
const FIVE_CHANGES = ['13:00:20 fail', '13:10:20 success', '13:20:20 fail', '13:30:20 success', '13:40:20 fail'];

describe('a monitor that changes between failed and fine 5 times within an hour', () => {
  it('sends its four alerts, then one flapping alert with the count, then nothing until steady for an hour', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    await walk(monitor.token, '12:55:00', '13:45:00', FIVE_CHANGES);
    expect(said()).toEqual([
      'monitor.failed 13:00',
      'monitor.recovered 13:10',
      'monitor.failed 13:20',
      'monitor.recovered 13:30',
      'monitor.flapping 13:40',
    ]);
    const flapping = alerts()[4];
    expect(flapping.reason).toEqual({ kind: 'flapping', changes: 5, since: '2026-11-27T13:00:20.000000Z', window_minutes: 60, failed: true });
    expect(whatHappened(flapping, { adminZone: 'UTC' })).toBe(
      'Changed between failed and fine 5 times in the last hour (since Fri 27 Nov 13:00 UTC); now failed. ' +
        'No more alerts for it until it has been steady for an hour.',
    );
    expect(fixture.notifications()[4].type).toBe('App\\Notifications\\MonitorFlappingNotification');
    expect(fixture.notifier.popups.at(-1)?.title).toBe('⚠ backup is flapping');
    expect(presentMonitor(fixture.reload(monitor.id), 'http://127.0.0.1', null).flapping_since).toBe('2026-11-27T13:40:20.000000Z');

    // It keeps flapping: nothing said, and each change puts steady an hour later again.
    await walk(monitor.token, '13:45:30', '14:05:00', ['13:50:20 success', '14:00:20 fail']);
    expect(said()).toHaveLength(5);
    expect(fixture.failer.nextStepAt()).toBe(at('2026-11-27T15:00:20Z') + 1);
    await walk(monitor.token, '14:05:30', '15:00:00');
    expect(said()).toHaveLength(5);

    // An hour without a change: one alert says it is steady, and what it is now.
    await walk(monitor.token, '15:00:30', '15:05:00');
    expect(said().slice(5)).toEqual(['monitor.steady 15:00']);
    expect(presentMonitor(fixture.reload(monitor.id), 'http://127.0.0.1', null)).not.toHaveProperty('flapping_since');
    const steady = alerts()[5];
    expect(steady.reason).toMatchObject({ kind: 'steady', changes: 7, failed: true, failed_since: '2026-11-27T14:00:20.000000Z' });
    expect(whatHappened(steady, { adminZone: 'UTC' })).toBe(
      'No change for an hour after flapping since Fri 27 Nov 13:40 UTC (7 changes): now failed since Fri 27 Nov 14:00 UTC. Alerts are sent again.',
    );

    // Alerts are back: its recovery is told (its failure was, folded into the flapping alert).
    await walk(monitor.token, '15:05:30', '15:12:00', ['15:10:20 success']);
    expect(said().slice(6)).toEqual(['monitor.recovered 15:10']);
    expect(fixture.failer.nextStepAt()).toBe(at('2026-11-27T15:21:00Z') + 1);
  });

  it('says it is steady and fine when it ended fine', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    const fine = ['13:50:20 success', '14:00:20 success', '14:10:20 success', '14:20:20 success', '14:30:20 success', '14:40:20 success', '14:50:20 success'];
    await walk(monitor.token, '12:55:00', '14:52:00', [...FIVE_CHANGES, ...fine]);
    expect(said().slice(4)).toEqual(['monitor.flapping 13:40', 'monitor.steady 14:50']);
    expect(alerts()[5].reason).toMatchObject({ kind: 'steady', changes: 6, failed: false, failed_since: null });
  });

  it('became steady while the agent was asleep: the first change after it wakes alerts, not an hour later', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    await walk(monitor.token, '12:55:00', '13:45:00', FIVE_CHANGES);
    // Asleep from 13:45 to 15:30, past its steady moment (14:40): the job's success waiting in the
    // connection queue is read before the loop's first step.
    await fixture.pulse(monitor.token, at('2026-11-27T15:30:20Z'));
    await fixture.step(at('2026-11-27T15:30:30Z'));
    expect(said().slice(4)).toEqual(['monitor.flapping 13:40', 'monitor.recovered 15:30']);
    expect(fixture.reload(monitor.id)).toMatchObject({ flapping: expect.stringContaining('"since":null'), steady_at: null });
    // Steady from then on: a failure an hour later is told at once, as any.
    await walk(monitor.token, '16:30:00', '16:31:00', ['16:30:20 fail']);
    expect(said().slice(6)).toEqual(['monitor.failed 16:30']);
  });

  it('flaps on missed runs too: the loop stores the flap state with the failure it counts', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    // 13:00 missed, 13:05 fine late, 13:10 missed, 13:15 fine, 13:20 missed: five changes, the fifth the loop's.
    await walk(monitor.token, '12:55:00', '13:25:00', ['13:05:20 success', '13:15:20 success']);
    expect(said().map((s) => s.split(' ')[0])).toEqual(['monitor.failed', 'monitor.recovered', 'monitor.failed', 'monitor.recovered', 'monitor.flapping']);
    expect(alerts()[4].reason).toMatchObject({ kind: 'flapping', changes: 5, failed: true });
    const flappingSince = presentMonitor(fixture.reload(monitor.id), 'http://127.0.0.1', null).flapping_since;
    expect(flappingSince?.slice(11, 16)).toBe('13:21');
    // Steady an hour after that change, which the loop plans for; until then its misses say nothing.
    expect(fixture.failer.nextStepAt()).toBeLessThanOrEqual(Date.parse(flappingSince!) + 60 * MINUTE + 1);
    await walk(monitor.token, '13:25:30', '14:22:00');
    expect(said().slice(5)).toEqual(['monitor.steady 14:21']);
  });

  it('does not flap on four changes in an hour, nor on five spread over more than an hour', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = fixture.monitor({ schedule: '*/20 * * * *', duration: 1 });
    // 13:00 failed, 13:20 fine, 13:40 failed, 14:00 fine, 14:20 failed: never five within an hour.
    await walk(monitor.token, '12:55:00', '14:25:00', ['13:00:20 fail', '13:20:20 success', '13:40:20 fail', '14:00:20 success', '14:20:20 fail']);
    expect(said().map((s) => s.split(' ')[0])).toEqual(['monitor.failed', 'monitor.recovered', 'monitor.failed', 'monitor.recovered', 'monitor.failed']);
  });

  it('keeps flapping across a restart (the SQLite file closed and opened again)', async () => {
    const dir = tempDir('cronbeat-flapping-');
    fixture = engineFixture(at('2026-11-27T12:55:00Z'), dir);
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    await walk(monitor.token, '12:55:00', '13:35:00', FIVE_CHANGES.slice(0, 4));
    fixture.store.close();
    fixture = engineFixture(at('2026-11-27T13:35:30Z'), dir);
    await walk(monitor.token, '13:35:30', '13:55:00', ['13:40:20 fail', '13:50:20 success']);
    expect(said().slice(4)).toEqual(['monitor.flapping 13:40']);
    fixture.store.close();
    fixture = engineFixture(at('2026-11-27T13:55:30Z'), dir);
    await walk(monitor.token, '13:55:30', '14:51:00', ['14:00:20 success', '14:10:20 success', '14:20:20 success', '14:30:20 success', '14:40:20 success', '14:50:20 success']);
    expect(said().slice(5)).toEqual(['monitor.steady 14:50']);
  });

  it('a failure it never told, steady during a maintenance window: the steady alert comes when the window ends', async () => {
    fixture = engineFixture(at('2026-11-27T11:55:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    // Failed at 12:00; from 13:10 it changes every ten minutes, the fifth change in the hour (13:50) a recovery.
    const changes = ['12:00:20 fail', '13:10:20 success', '13:20:20 fail', '13:30:20 success', '13:40:20 fail', '13:50:20 success'];
    await walk(monitor.token, '11:55:00', '13:55:00', changes);
    expect(said().at(-1)).toBe('monitor.flapping 13:50');
    expect(alerts().at(-1)!.reason).toMatchObject({ kind: 'flapping', failed: false });
    // Then the job stops for good: its 14:00 run is missed, which flapping keeps quiet; steady is due at 15:01, inside a window.
    fixture.store.maintenanceWindows.create(
      1,
      { name: 'upgrade', startsAt: at('2026-11-27T14:30:00Z'), endsAt: at('2026-11-27T16:00:00Z'), schedule: null, timezone: null, durationMinutes: null, monitorIds: [], tags: [] },
      at('2026-11-27T13:55:00Z'),
    );
    await walk(monitor.token, '13:55:30', '15:59:30');
    expect(said().at(-1)).toBe('monitor.flapping 13:50');
    expect(fixture.failer.nextStepAt()).toBe(at('2026-11-27T16:00:00Z') + 1);
    // The last word it sent was "now fine": the window's end tells that it is failed.
    await walk(monitor.token, '16:00:00', '17:00:00');
    expect(said().slice(6)).toEqual(['monitor.steady 16:00']);
    expect(alerts().at(-1)!.reason).toMatchObject({ kind: 'steady', failed: true, failed_since: '2026-11-27T14:01:30.000000Z' });
  });

  it('its steady-again alert held for a window comes as soon as the window is removed early', async () => {
    fixture = engineFixture(at('2026-11-27T11:55:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    const changes = ['12:00:20 fail', '13:10:20 success', '13:20:20 fail', '13:30:20 success', '13:40:20 fail', '13:50:20 success'];
    await walk(monitor.token, '11:55:00', '13:55:00', changes);
    const window = fixture.store.maintenanceWindows.create(
      1,
      { name: 'upgrade', startsAt: at('2026-11-27T14:30:00Z'), endsAt: at('2026-11-27T20:00:00Z'), schedule: null, timezone: null, durationMinutes: null, monitorIds: [], tags: [] },
      at('2026-11-27T13:55:00Z'),
    );
    await walk(monitor.token, '13:55:30', '15:10:00');
    expect(fixture.failer.nextStepAt()).toBe(at('2026-11-27T20:00:00Z') + 1);
    // The work is over at 15:10: the window goes, and the failure is told at once, not at 20:00.
    fixture.store.maintenanceWindows.delete(1, window.id);
    replanAfterWindowChange(fixture, 1, windowOf(window), at('2026-11-27T15:10:00Z'));
    await walk(monitor.token, '15:10:30', '15:11:00');
    expect(said().slice(6)).toEqual(['monitor.steady 15:10']);
    expect(alerts().at(-1)!.reason).toMatchObject({ kind: 'steady', failed: true });
  });

  it('steady while a failure short of its alert after N is under way: says "now fine", as that failure alerts nothing', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    // Every five minutes from 13:00 to 13:55, then nothing until the next day.
    const monitor = fixture.monitor({ schedule: '*/5 13 * * *', duration: 1 });
    fixture.store.monitorAlerting.setAlertAfter(1, monitor.id, 2, at('2026-11-27T12:55:00Z'));
    const pulses = ['13:00:20 fail', '13:05:20 fail', '13:10:20 success', '13:15:20 fail', '13:20:20 fail', '13:25:20 success', '13:30:20 fail', '13:35:20 fail'];
    await walk(monitor.token, '12:55:00', '13:36:00', pulses);
    expect(said().map((s) => s.split(' ')[0])).toEqual(['monitor.failed', 'monitor.recovered', 'monitor.failed', 'monitor.recovered', 'monitor.flapping']);
    // Fine again quietly, then the day's last run fails: once, short of its second in a row.
    await walk(monitor.token, '13:36:30', '14:45:00', ['13:40:20 success', '13:45:20 success', '13:50:20 success', '13:55:20 fail']);
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 1, alert_sent: 0 });
    expect(said().slice(5)).toEqual(['monitor.steady 14:40']);
    expect(alerts()[5].reason).toMatchObject({ kind: 'steady', failed: false, failed_since: null });
    expect(fixture.notifications()[5].data.description).toContain('now fine');
    // Its next run succeeds: nothing to tell, and the channels' last word was the truth.
    await walk(monitor.token, '14:45:30', '14:46:00');
    await fixture.pulse(monitor.token, at('2026-11-28T13:00:20Z'));
    expect(said()).toHaveLength(6);
  });

  it('counts only the changes that alert: with alert after 3, single failures between successes never flap', async () => {
    fixture = engineFixture(at('2026-11-27T12:55:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    fixture.store.monitorAlerting.setAlertAfter(1, monitor.id, 3, at('2026-11-27T12:55:00Z'));
    const pulses = ['13:00:20 fail', '13:10:20 success', '13:20:20 fail', '13:30:20 success', '13:40:20 fail', '13:50:20 success', '14:00:20 fail'];
    await walk(monitor.token, '12:55:00', '14:05:00', pulses);
    expect(said()).toEqual([]);
  });
});
