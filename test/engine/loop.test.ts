import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HEARTBEAT_MS, MAX_SLEEP_MS, startMonitorLoop } from '../../agent/engine/loop';
import { at, engineFixture } from './engineFixture';

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

// Added to the clock to freeze the process: time passes for the clock but no timer runs meanwhile.
let frozenFor = 0;
let logged: string[] = [];

function startLoop() {
  frozenFor = 0;
  logged = [];
  stop = startMonitorLoop({
    failer: fixture.failer,
    events: fixture.events,
    clock: () => Date.now() + frozenFor,
    log: (line) => logged.push(line),
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
    // The machine sleeps for an hour: the clock jumps, and the next heartbeat (a second later) sees the gap.
    vi.setSystemTime(at('2026-11-21T13:00:00Z'));
    vi.advanceTimersByTime(MAX_SLEEP_MS);
    expect(fixture.reload(missedWhileAsleep.id)).toMatchObject({ is_alerted: 0, grace_from: at('2026-11-21T13:00:01Z') });
    expect(fixture.reload(missedWhileQuit.id)).toMatchObject({ is_alerted: 0, grace_from: at('2026-11-21T13:00:01Z') });
    expect(fixture.notifier.popups).toEqual([]);

    vi.advanceTimersByTime(5 * 60_000 + 1);
    expect(fixture.reload(missedWhileAsleep.id).is_alerted).toBe(1);
    expect(fixture.reload(missedWhileQuit.id).is_alerted).toBe(1);
    expect(fixture.notifier.popups).toHaveLength(1);
    expect(fixture.notifier.popups[0].title).toBe('2 monitors missed');
  });
});

describe('monitor loop: freezes', () => {
  it('counts a freeze across a deadline as an outage when the loop timer is the first to run after it', async () => {
    vi.setSystemTime(at('2026-11-21T10:00:20.500Z'));
    fixture = engineFixture(Date.now());
    const monitor = fixture.monitor({ schedule: '* * * * *', duration: 1 }); // due 10:02:00
    startLoop();
    vi.advanceTimersByTime(99_100); // 10:01:59.6, the last heartbeat at 10:01:59.5
    // Frozen for 30 s: the loop's timer, planned for just after the deadline, is the first to run after it.
    frozenFor = 30_000;
    vi.advanceTimersByTime(401);
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, grace_from: at('2026-11-21T10:02:30.001Z') });
    // Then the socket queue is read: the pulse the job sent 10 s before the deadline.
    await fixture.pulse(monitor.token, Date.now() + frozenFor);
    vi.advanceTimersByTime(100_000);
    expect(fixture.notifications()).toEqual([]);
    vi.advanceTimersByTime(60_000); // and with no pulse after it, a true failure comes, later
    expect(fixture.notifications().map((n) => n.data.description)).toEqual(['Missed: the run due 2026-11-21 10:04 UTC did not come (grace 1 min); last run 2026-11-21 10:02 UTC']);
  });

  it('counts a 30 s freeze that began 29 s before a deadline and ended 1 s after it, seen by the heartbeat', async () => {
    vi.setSystemTime(at('2026-11-21T10:00:20.500Z'));
    fixture = engineFixture(Date.now());
    const monitor = fixture.monitor({ schedule: '* * * * *', duration: 1 }); // due 10:02:00
    startLoop();
    vi.advanceTimersByTime(70_600); // 10:01:31.1, the last beat at 10:01:30.5 (29.5 s before the deadline)
    frozenFor = 30_000;
    vi.advanceTimersByTime(400); // the next beat: 10:02:01.5 by the clock
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, grace_from: at('2026-11-21T10:02:01.500Z') });
    await fixture.pulse(monitor.token, Date.now() + frozenFor); // the queued pulse
    vi.advanceTimersByTime(30_000);
    expect(fixture.notifications()).toEqual([]);
    expect(fixture.notifier.popups).toEqual([]);
  });

  it('gives each deadline one grace at most when the process keeps stalling (sustained event-loop lag)', () => {
    vi.setSystemTime(at('2026-11-21T10:00:20.500Z'));
    fixture = engineFixture(Date.now());
    const monitor = fixture.monitor({ schedule: '* * * * *', duration: 1 });
    startLoop();
    // Every heartbeat comes 7 s after the one before: each gap looks like a freeze.
    for (let i = 0; i < 60 && fixture.reload(monitor.id).is_alerted === 0; i++) {
      frozenFor += 6_000;
      vi.advanceTimersByTime(HEARTBEAT_MS);
    }
    expect(fixture.reload(monitor.id).is_alerted).toBe(1);
    expect(fixture.alertReason(monitor.id)).toMatch(/^Missed: the run due 2026-11-21 10:01 UTC did not come, nor within 1 min of Cronbeat resuming/);
  });
});
