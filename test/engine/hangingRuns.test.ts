import { afterEach, describe, expect, it } from 'vitest';
import type { Alert } from '../../agent/domain/alerts/alert';
import { whatHappened } from '../../agent/domain/alerts/words';
import { at, engineFixture } from './engineFixture';

let fixture: ReturnType<typeof engineFixture>;
afterEach(() => fixture?.close());

const alerts = () => fixture.notifications().map((n) => n.alert as Alert);
const told = () => alerts().map((alert) => whatHappened(alert, { adminZone: 'UTC' }));

/* Runs that overlap, each with its rid (`cronbeat run` gives every run one): a later start never hides an earlier run that never ends. */
describe('a job on */10 with a grace of 1 min whose runs overlap', () => {
  it('hangs at every run: the first run that never finished is told once, though each later run started on time', async () => {
    fixture = engineFixture(at('2026-11-27T13:15:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    for (const minute of [20, 30, 40, 50]) {
      await fixture.pulse(monitor.token, at(`2026-11-27T13:${minute}:05Z`), { kind: 'start', rid: `run-${minute}` });
      await fixture.step(at(`2026-11-27T13:${minute + 1}:30Z`));
    }
    // Each start used to take the place of the run before it: "running" for good, and never an alert.
    expect(told()).toEqual(["Stuck: started Fri 27 Nov 13:20 UTC and never finished: no end within 1 min (its grace) of the next run's due time."]);
    expect(alerts()[0].reason).toMatchObject({ kind: 'not_finished', started_at: '2026-11-27T13:20:05.000000Z' });
    expect(fixture.reload(monitor.id).is_alerted).toBe(1);
  });

  it('a later run that succeeds ends an earlier one whose end was lost (killed with its machine): nothing is told', async () => {
    fixture = engineFixture(at('2026-11-27T13:15:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    await fixture.pulse(monitor.token, at('2026-11-27T13:20:05Z'), { kind: 'start', rid: 'lost' });
    await fixture.pulse(monitor.token, at('2026-11-27T13:30:05Z'), { kind: 'start', rid: 'next' });
    await fixture.pulse(monitor.token, at('2026-11-27T13:30:45Z'), { kind: 'success', rid: 'next' });
    await fixture.step(at('2026-11-27T13:40:30Z'));
    expect(told()).toEqual([]);
    expect(fixture.reload(monitor.id).running_since).toBeNull();
    // The run after it is awaited as ever.
    await fixture.step(at('2026-11-27T13:41:30Z'));
    expect(told()).toEqual(['Missed: the run due Fri 27 Nov 13:40 UTC did not come (grace 1 min); last run Fri 27 Nov 13:30 UTC.']);
  });

  it('the older run ends, the later one never does: the later one is told at its own deadline', async () => {
    fixture = engineFixture(at('2026-11-27T13:15:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    await fixture.pulse(monitor.token, at('2026-11-27T13:20:05Z'), { kind: 'start', rid: 'long' });
    await fixture.pulse(monitor.token, at('2026-11-27T13:30:05Z'), { kind: 'start', rid: 'hung' });
    await fixture.pulse(monitor.token, at('2026-11-27T13:30:50Z'), { kind: 'success', rid: 'long' });
    expect(fixture.reload(monitor.id).running_rid).toBe('hung');
    await fixture.step(at('2026-11-27T13:40:30Z'));
    expect(told()).toEqual([]);
    await fixture.pulse(monitor.token, at('2026-11-27T13:40:40Z'), { kind: 'start', rid: 'after' });
    await fixture.step(at('2026-11-27T13:41:30Z'));
    expect(alerts().map((a) => a.reason)).toMatchObject([{ kind: 'not_finished', started_at: '2026-11-27T13:30:05.000000Z' }]);
  });

  it('once told, the next run that succeeds recovers the monitor, and the run told is not told again', async () => {
    fixture = engineFixture(at('2026-11-27T13:15:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 1 });
    await fixture.pulse(monitor.token, at('2026-11-27T13:20:05Z'), { kind: 'start', rid: 'hung' });
    await fixture.pulse(monitor.token, at('2026-11-27T13:30:05Z'), { kind: 'start', rid: 'slow' });
    await fixture.step(at('2026-11-27T13:31:30Z'));
    await fixture.pulse(monitor.token, at('2026-11-27T13:35:00Z'), { kind: 'success', rid: 'slow' });
    await fixture.step(at('2026-11-27T13:38:00Z'));
    expect(alerts().map((a) => a.event)).toEqual(['monitor.failed', 'monitor.recovered']);
    const recovered = fixture.reload(monitor.id);
    expect([recovered.is_alerted, recovered.running_since]).toEqual([0, null]);
    await fixture.pulse(monitor.token, at('2026-11-27T13:40:05Z'), { kind: 'success' });
    await fixture.step(at('2026-11-27T13:49:00Z'));
    expect(alerts().map((a) => a.event)).toEqual(['monitor.failed', 'monitor.recovered']);
  });
});
