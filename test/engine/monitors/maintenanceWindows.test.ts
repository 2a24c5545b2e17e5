import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/testAgent';
import { windowOf } from '../../../agent/db/maintenanceWindows';
import { replanAfterWindowChange } from '../../../agent/engine/monitors/maintenance';
import { editMonitor } from '../../../agent/engine/monitors/monitorEdits';
import { at, engineFixture } from '../engineFixture';
import { alerts, oneOff, runsBetween, walk } from './windowTimelines';

const MINUTE = 60_000;
let fixture: ReturnType<typeof engineFixture>;
const dirs: string[] = [];
afterEach(() => {
  fixture?.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a one-off window', () => {
  it('raises nothing at its start, during it or at its end; the first run after it is expected', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 3 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z'), at('2026-11-27T13:00:00Z'));
    // The job is stopped for the upgrade: no run reports from 14:00 to 14:50.
    const runs = runsBetween('2026-11-27T13:10:00Z', '2026-11-27T15:30:00Z', 10, ['2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z']);
    expect(await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T15:32:30Z', runs)).toEqual([]);
    // After the window the monitor is watched as before: the 15:30 run never reported.
    expect(await walk(fixture, monitor.token, '2026-11-27T15:33:00Z', '2026-11-27T15:40:00Z')).toEqual(['monitor.failed 15:33']);
    expect(fixture.alertReason(monitor.id)).toContain('15:30');
  });

  it('does not hide the first run after it: a job that stays down after the work fails at that run\'s deadline', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 3 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z'), at('2026-11-27T13:00:00Z'));
    const runs = runsBetween('2026-11-27T13:10:00Z', '2026-11-27T14:00:00Z', 10);
    expect(await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T15:20:00Z', runs)).toEqual(['monitor.failed 15:03']);
    expect(fixture.alertReason(monitor.id)).toContain('15:00');
  });

  it('does not hide a run missed before it starts', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 3 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z'), at('2026-11-27T13:00:00Z'));
    const runs = runsBetween('2026-11-27T13:10:00Z', '2026-11-27T13:50:00Z', 10);
    expect(await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T14:30:00Z', runs)).toEqual(['monitor.failed 13:53']);
  });

  it('keeps a failure raised before it: a success during the window recovers nothing, the first run after it does', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 3 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z'), at('2026-11-27T13:00:00Z'));
    await fixture.pulse(monitor.token, at('2026-11-27T13:50:20Z'), { kind: 'fail', exitCode: 1 });
    expect(alerts(fixture)).toEqual(['monitor.failed 13:50']);
    const during = runsBetween('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z', 10);
    expect(await walk(fixture, monitor.token, '2026-11-27T13:51:00Z', '2026-11-27T15:05:00Z', during)).toEqual([]);
    expect(fixture.reload(monitor.id).is_alerted).toBe(1);
    expect(await walk(fixture, monitor.token, '2026-11-27T15:05:30Z', '2026-11-27T15:12:00Z', ['2026-11-27T15:10:00Z'])).toEqual(['monitor.recovered 15:10']);
  });

  it('records pulses during it, a failing one too, and raises nothing for them', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 3 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z'), at('2026-11-27T13:00:00Z'));
    await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T14:05:00Z', runsBetween('2026-11-27T13:10:00Z', '2026-11-27T14:00:00Z', 10));
    const counted = fixture.store.pulses.count(monitor.id);
    await fixture.pulse(monitor.token, at('2026-11-27T14:10:05Z'), { kind: 'start', rid: 'r1' });
    await fixture.pulse(monitor.token, at('2026-11-27T14:10:30Z'), { kind: 'fail', rid: 'r1', exitCode: 2 });
    expect(fixture.store.pulses.count(monitor.id)).toBe(counted + 2);
    expect(await walk(fixture, monitor.token, '2026-11-27T14:11:00Z', '2026-11-27T15:25:00Z', ['2026-11-27T15:00:00Z', '2026-11-27T15:10:00Z', '2026-11-27T15:20:00Z'])).toEqual([]);
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, running_since: null });
  });

  it('covers only the monitors it names, by id or by tag; one naming none covers every monitor', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const named = fixture.monitor({ name: 'named', schedule: '*/10 * * * *', duration: 3 });
    const tagged = fixture.monitor({ name: 'tagged', schedule: '*/10 * * * *', duration: 3 });
    const other = fixture.monitor({ name: 'other', schedule: '*/10 * * * *', duration: 3 });
    fixture.store.monitorLines.setTags(tagged.id, ['db'], at('2026-11-27T13:00:00Z'));
    fixture.store.maintenanceWindows.create(
      1,
      oneOff('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z', { monitorIds: [named.id], tags: ['db'] }),
      at('2026-11-27T13:00:00Z'),
    );
    for (let now = at('2026-11-27T13:00:00Z'); now <= at('2026-11-27T14:30:00Z'); now += MINUTE / 2) {
      if (now % (10 * MINUTE) === 30_000 && now < at('2026-11-27T14:00:00Z')) {
        for (const m of [named, tagged, other]) await fixture.pulse(m.token, now);
      }
      await fixture.step(now);
    }
    expect(fixture.notifications().map((n) => `${n.alert!.monitor!.name} ${n.alert!.at.slice(11, 16)}`)).toEqual(['other 14:03']);

    // A window naming nobody covers all three: each reports at 15:50, then nothing until 17:00, and nothing is raised.
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T16:00:00Z', '2026-11-27T17:00:00Z'), at('2026-11-27T14:30:00Z'));
    for (const m of [named, tagged, other]) await fixture.pulse(m.token, at('2026-11-27T15:50:20Z'));
    const before = fixture.notifications().length;
    for (let now = at('2026-11-27T15:50:30Z'); now <= at('2026-11-27T17:02:00Z'); now += MINUTE / 2) await fixture.step(now);
    expect(fixture.notifications().slice(before)).toEqual([]);
  });
});

describe('a window ended early', () => {
  it('removed while under way: the monitors it held wait for their next run from then, not from its old end', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 3 });
    const window = fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T16:00:00Z'), at('2026-11-27T13:00:00Z'));
    expect(await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T14:31:00Z', runsBetween('2026-11-27T13:10:00Z', '2026-11-27T14:00:00Z', 10))).toEqual([]);
    expect(fixture.reload(monitor.id).expected_run_at).toBe(at('2026-11-27T16:00:00Z'));
    // The work is done at 14:31 and the window removed; the job did not come back.
    const removedAt = at('2026-11-27T14:31:00Z');
    fixture.store.maintenanceWindows.delete(1, window.id);
    expect(replanAfterWindowChange(fixture, 1, windowOf(window), removedAt).map((m) => m.id)).toEqual([monitor.id]);
    expect(await walk(fixture, monitor.token, '2026-11-27T14:31:30Z', '2026-11-27T14:50:00Z')).toEqual(['monitor.failed 14:43']);
  });

  it('shortened while under way: they wait for the first run at or after its new end', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 3 });
    const window = fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T16:00:00Z'), at('2026-11-27T13:00:00Z'));
    await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T14:31:00Z', runsBetween('2026-11-27T13:10:00Z', '2026-11-27T14:00:00Z', 10));
    const changedAt = at('2026-11-27T14:31:00Z');
    fixture.store.maintenanceWindows.edit(1, window.id, oneOff('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z'), changedAt);
    replanAfterWindowChange(fixture, 1, windowOf(window), changedAt);
    expect(fixture.reload(monitor.id).expected_run_at).toBe(at('2026-11-27T15:00:00Z'));
    expect(await walk(fixture, monitor.token, '2026-11-27T14:31:30Z', '2026-11-27T15:10:00Z')).toEqual(['monitor.failed 15:03']);
  });

  it('a monitor whose tags no longer meet it while under way waits for its next run from then, not from its end', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 3 });
    fixture.store.monitorLines.setTags(monitor.id, ['db'], at('2026-11-27T13:00:00Z'));
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T16:00:00Z', { tags: ['db'] }), at('2026-11-27T13:00:00Z'));
    await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T14:31:00Z', runsBetween('2026-11-27T13:10:00Z', '2026-11-27T14:00:00Z', 10));
    expect(fixture.reload(monitor.id).expected_run_at).toBe(at('2026-11-27T16:00:00Z'));
    // Its tag is taken off at 14:31 (it is out of the work); its job is still down, which the 14:40 run tells.
    editMonitor(fixture, 1, monitor.id, { tags: ['web'] }, at('2026-11-27T14:31:00Z'));
    expect(fixture.reload(monitor.id).expected_run_at).toBe(at('2026-11-27T14:40:00Z'));
    expect(await walk(fixture, monitor.token, '2026-11-27T14:31:30Z', '2026-11-27T14:50:00Z')).toEqual(['monitor.failed 14:43']);
  });

  it('lengthened, or removed when not under way: nothing moves', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 3 });
    const window = fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z'), at('2026-11-27T13:00:00Z'));
    await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T14:31:00Z', runsBetween('2026-11-27T13:10:00Z', '2026-11-27T14:00:00Z', 10));
    fixture.store.maintenanceWindows.edit(1, window.id, oneOff('2026-11-27T14:00:00Z', '2026-11-27T16:00:00Z'), at('2026-11-27T14:31:00Z'));
    expect(replanAfterWindowChange(fixture, 1, windowOf(window), at('2026-11-27T14:31:00Z'))).toEqual([]);
    const later = fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T18:00:00Z', '2026-11-27T19:00:00Z'), at('2026-11-27T14:32:00Z'));
    fixture.store.maintenanceWindows.delete(1, later.id);
    expect(replanAfterWindowChange(fixture, 1, windowOf(later), at('2026-11-27T14:33:00Z'))).toEqual([]);
  });
});

describe('a restart during a window', () => {
  it('raises nothing when the agent was down from before the window into it', async () => {
    const dir = tempDir('cronbeat-maintenance-');
    dirs.push(dir);
    fixture = engineFixture(at('2026-11-27T13:00:00Z'), dir);
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 3 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z'), at('2026-11-27T13:00:00Z'));
    await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T13:55:00Z', runsBetween('2026-11-27T13:10:00Z', '2026-11-27T14:00:00Z', 10));
    fixture.store.close();

    // Down from 13:55 to 14:30, as the loop starts: a catch-up grace, then the window holds the monitor.
    fixture = engineFixture(at('2026-11-27T14:30:00Z'), dir);
    fixture.failer.graceOverdue({ from: null, to: at('2026-11-27T14:30:00Z') });
    const after = ['2026-11-27T15:00:00Z', '2026-11-27T15:10:00Z', '2026-11-27T15:20:00Z'];
    expect(await walk(fixture, monitor.token, '2026-11-27T14:30:00Z', '2026-11-27T15:25:00Z', after)).toEqual([]);
    expect(await walk(fixture, monitor.token, '2026-11-27T15:25:30Z', '2026-11-27T15:40:00Z')).toEqual(['monitor.failed 15:33']);
  });

  it('raises nothing when the agent was down across the whole window, and still fails a run missed after it', async () => {
    const dir = tempDir('cronbeat-maintenance-');
    dirs.push(dir);
    fixture = engineFixture(at('2026-11-27T13:00:00Z'), dir);
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 3 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z'), at('2026-11-27T13:00:00Z'));
    await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T13:55:00Z', runsBetween('2026-11-27T13:10:00Z', '2026-11-27T14:00:00Z', 10));
    fixture.store.close();

    // Back at 15:01: the 14:00 run fell in the window, so at the end of its catch-up grace (15:04) the monitor
    // waits for 15:00's run instead. Its deadline (15:03) passed with the agent running: no second grace, and the
    // miss names when Cronbeat resumed (it said "resuming at 15:04" after a grace more).
    fixture = engineFixture(at('2026-11-27T15:01:00Z'), dir);
    fixture.failer.graceOverdue({ from: null, to: at('2026-11-27T15:01:00Z') });
    expect(await walk(fixture, monitor.token, '2026-11-27T15:01:00Z', '2026-11-27T15:10:00Z')).toEqual(['monitor.failed 15:05']);
    expect(fixture.alertReason(monitor.id)).toBe(
      'Missed: the run due 2026-11-27 15:00 UTC did not come, nor within 3 min of Cronbeat resuming at 2026-11-27 15:01 UTC; last run 2026-11-27 13:50 UTC',
    );
  });
});

describe('a recurring window over a daylight-saving change', () => {
  it('02:00–04:00 Europe/Paris every night: on 2026-03-29 it starts at the jump (03:00 CEST) and lasts 2 h', async () => {
    fixture = engineFixture(at('2026-03-27T23:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*/15 * * * *', timezone: 'Europe/Paris', duration: 5 });
    fixture.store.maintenanceWindows.create(
      1,
      { ...oneOff('2026-03-27T23:00:00Z', '2026-03-27T23:00:01Z'), startsAt: null, endsAt: null, schedule: '0 2 * * *', timezone: 'Europe/Paris', durationMinutes: 120 },
      at('2026-03-27T23:00:00Z'),
    );
    // 28 March: CET, the window is 01:00–03:00 UTC. 29 March: 02:00 does not exist; it opens at 03:00 CEST (01:00 UTC) until 03:00 UTC.
    const runs = [
      ...runsBetween('2026-03-27T23:15:00Z', '2026-03-28T01:00:00Z', 15),
      ...runsBetween('2026-03-28T03:00:00Z', '2026-03-29T01:00:00Z', 15),
      ...runsBetween('2026-03-29T03:00:00Z', '2026-03-29T04:00:00Z', 15),
    ];
    expect(await walk(fixture, monitor.token, '2026-03-27T23:00:00Z', '2026-03-29T04:03:00Z', runs)).toEqual([]);
    // No run at 04:00 UTC (06:00 CEST): the window is over, so that is a true miss.
    expect(await walk(fixture, monitor.token, '2026-03-29T04:03:30Z', '2026-03-29T04:10:00Z')).toEqual(['monitor.failed 04:05']);
  });
});

describe('a recurring window on a calendar event', () => {
  it('"Sun 03:00" Europe/Paris for an hour: the runs due while it is open are not expected, the first after it is', async () => {
    fixture = engineFixture(at('2026-11-28T23:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*/15 * * * *', duration: 5 });
    fixture.store.maintenanceWindows.create(
      1,
      { ...oneOff('2026-11-28T23:00:00Z', '2026-11-28T23:00:01Z'), startsAt: null, endsAt: null, schedule: 'Sun 03:00', timezone: 'Europe/Paris', durationMinutes: 60 },
      at('2026-11-28T23:00:00Z'),
    );
    // Sunday 29 November, 03:00–04:00 in Paris is 02:00–03:00 UTC: the job is down for it.
    const runs = runsBetween('2026-11-28T23:15:00Z', '2026-11-29T03:45:00Z', 15, ['2026-11-29T02:00:00Z', '2026-11-29T03:00:00Z']);
    expect(await walk(fixture, monitor.token, '2026-11-28T23:00:00Z', '2026-11-29T03:47:00Z', runs)).toEqual([]);
    // Down again after the window: the 03:45 run is missed.
    expect(await walk(fixture, monitor.token, '2026-11-29T03:47:30Z', '2026-11-29T03:55:00Z')).toEqual(['monitor.failed 03:50']);
  });
});
