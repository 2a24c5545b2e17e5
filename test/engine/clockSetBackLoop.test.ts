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

  it('found so at start (a machine without a battery-backed clock, before NTP answers): nothing recorded is rewritten, a pulse still counts', async () => {
    vi.setSystemTime(at('2026-11-22T10:00:30Z'));
    fixture = engineFixture(Date.now());
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    await fixture.pulse(monitor.token, at('2026-11-22T11:00:00Z'), { kind: 'fail', exitCode: 2 });
    const before = fixture.reload(monitor.id);

    vi.setSystemTime(at('2023-01-01T00:00:00Z')); // booted at an old date
    startLoop();
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(fixture.reload(monitor.id)).toEqual(before);
    // Whichever clock is right, the job's next word counts: its success recovers the monitor.
    vi.setSystemTime(at('2023-01-01T00:00:05Z'));
    await fixture.pulse(monitor.token, Date.now());
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, failed_at: before.failed_at });
    expect(fixture.notifications().map((n) => n.data.status).sort()).toEqual(['failed', 'recovered']);
  });
});
