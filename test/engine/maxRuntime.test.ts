import { afterEach, describe, expect, it } from 'vitest';
import type { Alert } from '../../agent/domain/alerts/alert';
import { whatHappened } from '../../agent/domain/alerts/words';
import { at, engineFixture } from './engineFixture';

let fixture: ReturnType<typeof engineFixture>;
afterEach(() => fixture?.close());

const alerts = () => fixture.notifications().map((n) => n.alert as Alert);
const words = (alert: Alert) => whatHappened(alert, { adminZone: 'UTC' });

/* A late start and a long run are two limits: the grace (how late a run starts) and the max run time (how long it takes). */
describe('a started run on */10 with a grace of 1 min', () => {
  it('without a max run time: no alarm while it runs past its grace; "never finished" only when the next run does not come', async () => {
    fixture = engineFixture(at('2026-11-27T13:15:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    await fixture.pulse(monitor.token, at('2026-11-27T13:22:00Z'), { kind: 'start', rid: 'r1' });
    await fixture.step(at('2026-11-27T13:23:01Z'));
    await fixture.step(at('2026-11-27T13:30:59Z'));
    expect(fixture.reload(monitor.id).is_alerted).toBe(0);
    expect(alerts()).toEqual([]);

    await fixture.step(at('2026-11-27T13:31:01Z'));
    const [alert] = alerts();
    expect(alert.reason).toMatchObject({ kind: 'not_finished', started_at: '2026-11-27T13:22:00.000000Z', grace_minutes: 1 });
    expect(alert.expected_at).toBe('2026-11-27T13:30:00.000000Z');
    expect(words(alert)).toBe('Stuck: started Fri 27 Nov 13:22 UTC and never finished: the run due Fri 27 Nov 13:30 UTC did not come either (grace 1 min).');
  });

  it('with a max run time of 10 min: stuck at 13:32, naming its start, how long and the run it was due for', async () => {
    fixture = engineFixture(at('2026-11-27T13:15:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1, maxRuntime: 10 });
    await fixture.pulse(monitor.token, at('2026-11-27T13:22:00Z'), { kind: 'start', rid: 'r1' });
    // Past its grace and past the next run's deadline: still within its max run time, so no alarm.
    await fixture.step(at('2026-11-27T13:31:30Z'));
    await fixture.step(at('2026-11-27T13:32:00Z'));
    expect(alerts()).toEqual([]);

    await fixture.step(at('2026-11-27T13:32:01Z'));
    const failed = fixture.reload(monitor.id);
    expect(failed.is_alerted).toBe(1);
    expect(fixture.alertReason(monitor.id)).toBe('Stuck: started 2026-11-27 13:22 UTC, still running after 10 min (its max run time)');
    const [alert] = alerts();
    expect(alert.reason).toEqual({ kind: 'stuck', started_at: '2026-11-27T13:22:00.000000Z', max_runtime_minutes: 10, resumed_at: null });
    expect(alert.expected_at).toBe('2026-11-27T13:20:00.000000Z');
    expect(alert.run).toMatchObject({ started_at: '2026-11-27T13:22:00.000000Z', ended_at: null });
    expect(words(alert)).toBe('Stuck: started Fri 27 Nov 13:22 UTC, still running after 10 min (its max run time).');
    expect(fixture.notifier.popups.map((p) => p.title)).toEqual(['⚠ backup is stuck']);

    // Its end comes at 13:40: the recovery names the run that ended.
    await fixture.pulse(monitor.token, at('2026-11-27T13:40:00Z'), { kind: 'success', rid: 'r1' });
    const recovered = alerts()[1];
    expect(recovered.event).toBe('monitor.recovered');
    expect(recovered.run).toMatchObject({ started_at: '2026-11-27T13:22:00.000000Z', ended_at: '2026-11-27T13:40:00.000000Z', duration_ms: 18 * 60_000 });
    expect(fixture.reload(monitor.id).is_alerted).toBe(0);
  });

  it('a run that ends within its max run time raises nothing, and the next run is awaited as usual', async () => {
    fixture = engineFixture(at('2026-11-27T13:15:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1, maxRuntime: 10 });
    await fixture.pulse(monitor.token, at('2026-11-27T13:22:00Z'), { kind: 'start', rid: 'r1' });
    await fixture.pulse(monitor.token, at('2026-11-27T13:29:00Z'), { kind: 'success', rid: 'r1' });
    await fixture.step(at('2026-11-27T13:30:59Z'));
    expect(alerts()).toEqual([]);
    await fixture.step(at('2026-11-27T13:31:01Z'));
    expect(alerts().map((a) => a.reason.kind)).toEqual(['missed']);
  });
});
