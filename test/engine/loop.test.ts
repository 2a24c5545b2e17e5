import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_SLEEP_MS, startMonitorLoop } from '../../agent/engine/loop';
import { at, engineFixture } from './engineFixture';

// Fake timers move Date.now too, so the loop's clock and its sleeps stay in step without sleeping.
let fixture: ReturnType<typeof engineFixture>;
let stop: () => void;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  stop?.();
  fixture?.close();
  vi.useRealTimers();
});

function startLoop() {
  stop = startMonitorLoop({
    scheduler: fixture.scheduler,
    events: fixture.events,
    earliestDueAt: () => fixture.store.monitors.earliestDueAt(),
    clock: () => Date.now(),
    log: () => {},
  });
}

describe('monitor loop', () => {
  it('sleeps until the earliest due time and fails the monitor just after it', () => {
    vi.setSystemTime(at('2026-11-21T10:00:20Z'));
    fixture = engineFixture(Date.now());
    const monitor = fixture.monitor({ schedule: '* * * * *', duration: 1 });
    startLoop();
    vi.advanceTimersByTime(100_000); // 10:02:00 by the clock: at the deadline, not past it
    expect(fixture.reload(monitor.id).is_alerted).toBe(0);
    vi.advanceTimersByTime(1);
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 1, updated_at: at('2026-11-21T10:02:00.001Z') });
    expect(fixture.notifier.popups).toHaveLength(1);
  });

  it('is woken early when a new monitor moves the earliest due time', () => {
    vi.setSystemTime(at('2026-11-21T10:00:00Z'));
    fixture = engineFixture(Date.now());
    startLoop(); // nothing to wait for: it sleeps the longest
    const monitor = fixture.monitor({ schedule: '* * * * *', duration: 1, now: Date.now() });
    fixture.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: monitor.id });
    vi.advanceTimersByTime(120_000 + 1);
    expect(fixture.reload(monitor.id).is_alerted).toBe(1);
    expect(fixture.reload(monitor.id).updated_at).toBe(at('2026-11-21T10:02:00.001Z'));
  });

  it('gives a grace instead of failing at start, and after the machine slept', () => {
    vi.setSystemTime(at('2026-11-21T09:58:30Z'));
    fixture = engineFixture(Date.now());
    const missedWhileQuit = fixture.monitor({ name: 'quit', schedule: '0 * * * *', duration: 5 });
    vi.setSystemTime(at('2026-11-21T12:00:00Z'));
    startLoop();
    expect(fixture.reload(missedWhileQuit.id)).toMatchObject({ is_alerted: 0, due_at: at('2026-11-21T12:05:00Z') });

    const missedWhileAsleep = fixture.monitor({ name: 'asleep', schedule: '10 12 * * *', duration: 5, now: Date.now() });
    fixture.events.emit({ type: 'monitor.changed', companyId: 1, monitorId: missedWhileAsleep.id });
    // The machine sleeps for an hour: the clock jumps, and the loop's timer fires late.
    // Its timer (at most MAX_SLEEP_MS) fires at 13:00:30, an hour late.
    vi.setSystemTime(at('2026-11-21T13:00:00Z'));
    vi.advanceTimersByTime(MAX_SLEEP_MS);
    expect(fixture.reload(missedWhileAsleep.id)).toMatchObject({ is_alerted: 0, grace_from: at('2026-11-21T13:00:30Z') });
    expect(fixture.reload(missedWhileQuit.id)).toMatchObject({ is_alerted: 0, grace_from: at('2026-11-21T13:00:30Z') });
    expect(fixture.notifier.popups).toEqual([]);

    vi.advanceTimersByTime(5 * 60_000 + 1);
    expect(fixture.reload(missedWhileAsleep.id).is_alerted).toBe(1);
    expect(fixture.reload(missedWhileQuit.id).is_alerted).toBe(1);
    expect(fixture.notifier.popups).toHaveLength(1);
    expect(fixture.notifier.popups[0].title).toBe('2 monitors failed');
  });
});
