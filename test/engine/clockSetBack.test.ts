import { afterEach, describe, expect, it } from 'vitest';
import { at, engineFixture } from './engineFixture';

/*
 * The agent's clock ran a day ahead (a wrong date at boot) while jobs pulsed, then NTP set it
 * back. Nothing recorded "tomorrow" may hold a monitor until the clock gets there again.
 */
let fixture: ReturnType<typeof engineFixture>;
afterEach(() => fixture?.close());

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('a clock set back by a day', () => {
  it('a pulse after the correction counts: a /fail fails the monitor, the next success recovers it', async () => {
    fixture = engineFixture(at('2026-11-22T10:00:30Z')); // the clock a day ahead
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    await fixture.pulse(monitor.token, at('2026-11-22T11:00:00Z'));

    // Set back to the true time: the 11:00 run fails, as the job says.
    await fixture.pulse(monitor.token, at('2026-11-21T11:00:10Z'), { kind: 'fail', exitCode: 1 });
    expect(fixture.reload(monitor.id)).toMatchObject({
      is_alerted: 1,
      state_since: at('2026-11-21T11:00:10Z'),
      last_pulse_at: at('2026-11-21T11:00:10Z'),
      last_run_at: at('2026-11-21T11:00:10Z'),
      failed_at: at('2026-11-21T11:00:10Z'),
    });
    await fixture.pulse(monitor.token, at('2026-11-21T12:00:05Z'));
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, due_at: at('2026-11-21T13:05:00Z') });
    expect(fixture.notifications().map((n) => n.data.status)).toEqual(['failed', 'recovered']);
  });

  it('a success after the correction awaits the next run, not the one after "tomorrow"', async () => {
    fixture = engineFixture(at('2026-11-22T10:00:30Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    await fixture.pulse(monitor.token, at('2026-11-22T11:00:00Z'));
    await fixture.pulse(monitor.token, at('2026-11-21T11:00:05Z'));
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-21T12:05:00.000Z');
    // The job stops: its 12:00 run is missed at 12:05, not a day later.
    await fixture.step(at('2026-11-21T12:05:01Z'));
    expect(fixture.reload(monitor.id).is_alerted).toBe(1);
  });

  it('a run started "tomorrow" and ended after the correction lasted no negative time', async () => {
    fixture = engineFixture(at('2026-11-22T10:00:30Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    await fixture.pulse(monitor.token, at('2026-11-22T11:00:00Z'), { kind: 'start' });
    await fixture.pulse(monitor.token, at('2026-11-21T11:00:30Z'));
    const end = fixture.store.pulses.page(monitor.id, 10, 0).find((p) => p.kind === 'success');
    expect(end).toMatchObject({ kind: 'success', duration_ms: 0 });
    expect(fixture.reload(monitor.id)).toMatchObject({ running_since: null, is_alerted: 0, due_at: at('2026-11-21T12:05:00Z') });
  });
});
