import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_MS, startMonitorLoop } from '../../agent/engine/loop';
import { at, engineFixture } from './engineFixture';

/*
 * The monitor loop on a clock set back: by NTP while it runs (a wrong date at boot corrected), or
 * found so at start (a VM restored, the agent restarted after the correction). A job that stops
 * after the correction is missed at its own deadline, not when the clock reaches what it recorded.
 */
let fixture: ReturnType<typeof engineFixture>;
let stop: (() => void) | undefined;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  stop?.();
  stop = undefined;
  fixture?.close();
  vi.useRealTimers();
});

const startLoop = () => {
  stop = startMonitorLoop({ failer: fixture.failer, events: fixture.events, clock: () => Date.now(), log: () => {} });
};

describe('the monitor loop on a clock set back', () => {
  it('set back while it runs: the run after the correction is missed at its deadline', async () => {
    vi.setSystemTime(at('2026-11-22T10:00:30Z')); // a day ahead
    fixture = engineFixture(Date.now());
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    startLoop();
    vi.setSystemTime(at('2026-11-22T11:00:00Z'));
    await fixture.pulse(monitor.token, Date.now());
    vi.advanceTimersByTime(HEARTBEAT_MS);

    vi.setSystemTime(at('2026-11-21T11:00:30Z')); // NTP sets the true time
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(fixture.reload(monitor.id)).toMatchObject({
      due_at: at('2026-11-21T12:05:00Z'),
      last_run_at: at('2026-11-21T11:00:31Z'),
      last_pulse_at: at('2026-11-21T11:00:31Z'),
      updated_at: at('2026-11-21T11:00:31Z'),
    });
    vi.advanceTimersByTime(at('2026-11-21T12:05:01Z') - Date.now());
    expect(fixture.reload(monitor.id).is_alerted).toBe(1);
    expect(fixture.notifications().map((n) => n.data.status)).toEqual(['failed']);
  });

  it('found so at start: a monitor failed "tomorrow" recovers with the next success, after no negative time', async () => {
    vi.setSystemTime(at('2026-11-22T10:00:30Z'));
    fixture = engineFixture(Date.now());
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    await fixture.pulse(monitor.token, at('2026-11-22T11:00:00Z'), { kind: 'fail', exitCode: 2 });

    vi.setSystemTime(at('2026-11-21T11:30:00Z')); // restarted after the correction
    startLoop();
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 1, state_since: at('2026-11-21T11:30:00Z'), failed_at: at('2026-11-21T11:30:00Z') });
    vi.setSystemTime(at('2026-11-21T12:00:10Z'));
    await fixture.pulse(monitor.token, Date.now());
    expect(fixture.reload(monitor.id).is_alerted).toBe(0);
    const recovered = fixture.notifications().find((n) => n.data.status === 'recovered');
    expect(recovered?.alert.reason).toMatchObject({ kind: 'recovered', failed_since: '2026-11-21T11:30:00.000000Z' });
  });
});
