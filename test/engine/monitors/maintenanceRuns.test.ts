import { afterEach, describe, expect, it } from 'vitest';
import { at, engineFixture } from '../engineFixture';
import { oneOff, runsBetween, walk } from './windowTimelines';

// Which runs a window excuses and which pulses it holds, near its edges: runs in progress, periods, early pulses.

let fixture: ReturnType<typeof engineFixture>;
afterEach(() => fixture?.close());

describe('a period (@every) in a window', () => {
  it('waits one whole period after the window\'s end, and a miss names that moment to the minute', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '@every 1h', duration: 5 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z'), at('2026-11-27T13:00:00Z'));
    // Its 14:30 run falls in the window: it then waits for a pulse by 16:00 (one period after the end), plus its grace.
    expect(await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T16:00:00Z', ['2026-11-27T13:30:00Z'])).toEqual([]);
    expect(fixture.reload(monitor.id).expected_run_at).toBe(at('2026-11-27T16:00:00Z'));
    expect(await walk(fixture, monitor.token, '2026-11-27T16:00:30Z', '2026-11-27T16:10:00Z')).toEqual(['monitor.failed 16:05']);
    expect(fixture.alertReason(monitor.id)).toBe('Missed: the run due 2026-11-27 16:00 UTC did not come (grace 5 min); last run 2026-11-27 13:30 UTC');
  });
});

describe('a run in progress when a window met it', () => {
  it('is forgotten; the next run that does not come is told at its deadline, with no "resuming" in its words', async () => {
    fixture = engineFixture(at('2026-11-27T12:50:00Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T13:01:00Z', '2026-11-27T13:30:00Z'), at('2026-11-27T12:50:00Z'));
    // The 13:00 run starts and never ends; Cronbeat runs all along.
    await fixture.pulse(monitor.token, at('2026-11-27T13:00:10Z'), { kind: 'start' });
    expect(await walk(fixture, monitor.token, '2026-11-27T13:00:30Z', '2026-11-27T14:20:00Z')).toEqual(['monitor.failed 14:06']);
    expect(fixture.alertReason(monitor.id)).toBe('Missed: the run due 2026-11-27 14:00 UTC did not come (grace 5 min); last run 2026-11-27 13:00 UTC');
  });
});

describe('a run with a max run time in progress when a window began', () => {
  it('is forgotten, as the window may have killed it: no "stuck" after the window, and the next run is awaited', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '50 * * * *', duration: 3, maxRuntime: 30 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T14:10:00Z'), at('2026-11-27T13:00:00Z'));
    // The 13:50 run starts; the reboot at 14:00 kills it, so it never ends. Stuck would be 14:20, after the window.
    await fixture.pulse(monitor.token, at('2026-11-27T13:50:05Z'), { kind: 'start' });
    expect(await walk(fixture, monitor.token, '2026-11-27T13:50:30Z', '2026-11-27T14:55:00Z', ['2026-11-27T14:50:00Z'])).toEqual([]);
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, expected_run_at: at('2026-11-27T15:50:00Z') });
  });

  it('started long before a window and stuck after it without one meeting it, still tells', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '50 * * * *', duration: 3, maxRuntime: 30 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:30:00Z', '2026-11-27T14:40:00Z'), at('2026-11-27T13:00:00Z'));
    await fixture.pulse(monitor.token, at('2026-11-27T13:50:05Z'), { kind: 'start' });
    expect(await walk(fixture, monitor.token, '2026-11-27T13:50:30Z', '2026-11-27T14:25:00Z')).toEqual(['monitor.failed 14:20']);
  });
});

describe('the first run after a window, reported a moment early', () => {
  it('counts for that run (a server\'s clock a little ahead), though it came before the end', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 3 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z'), at('2026-11-27T13:00:00Z'));
    await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T14:59:30Z', runsBetween('2026-11-27T13:10:00Z', '2026-11-27T14:00:00Z', 10));
    // The 15:00 run, on a server 25 s ahead, reports at 14:59:35 by the agent's clock.
    await fixture.pulse(monitor.token, at('2026-11-27T14:59:35Z'));
    expect(await walk(fixture, monitor.token, '2026-11-27T14:59:40Z', '2026-11-27T15:08:00Z')).toEqual([]);
    expect(fixture.reload(monitor.id).expected_run_at).toBe(at('2026-11-27T15:10:00Z'));
  });

  it('a pulse early for a run still in the window is held, as any pulse in it', async () => {
    fixture = engineFixture(at('2026-11-27T13:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 3 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T14:00:00Z', '2026-11-27T15:00:00Z'), at('2026-11-27T13:00:00Z'));
    await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T14:29:30Z', runsBetween('2026-11-27T13:10:00Z', '2026-11-27T14:00:00Z', 10));
    await fixture.pulse(monitor.token, at('2026-11-27T14:29:40Z'), { kind: 'fail', exitCode: 1 });
    expect(fixture.reload(monitor.id).is_alerted).toBe(0);
  });
});

describe('a run missed before a window, while Cronbeat was not running', () => {
  it('is told once Cronbeat resumes during the window, at the end of its catch-up grace: the window did not meet it', async () => {
    fixture = engineFixture(at('2026-11-27T10:00:00Z'));
    const monitor = fixture.monitor({ schedule: '0 11 * * *', duration: 5 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T12:00:00Z', '2026-11-27T14:00:00Z'), at('2026-11-27T10:00:00Z'));
    // Cronbeat is off from 10:30 to 13:00: the 11:00 run never came, its deadline (11:05) long before the window.
    const resumedAt = at('2026-11-27T13:00:00Z');
    fixture.failer.graceOverdue({ from: at('2026-11-27T10:30:00Z'), to: resumedAt });
    expect(await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T13:10:00Z')).toEqual(['monitor.failed 13:05']);
    expect(fixture.alertReason(monitor.id)).toMatch(/^Missed: the run due 2026-11-27 11:00 UTC did not come/);
  });

  it('a run the window met is still excused when Cronbeat resumes during it', async () => {
    fixture = engineFixture(at('2026-11-27T10:00:00Z'));
    const monitor = fixture.monitor({ schedule: '0 12 * * *', duration: 5 });
    fixture.store.maintenanceWindows.create(1, oneOff('2026-11-27T12:00:00Z', '2026-11-27T14:00:00Z'), at('2026-11-27T10:00:00Z'));
    fixture.failer.graceOverdue({ from: at('2026-11-27T10:30:00Z'), to: at('2026-11-27T13:00:00Z') });
    expect(await walk(fixture, monitor.token, '2026-11-27T13:00:00Z', '2026-11-27T14:30:00Z')).toEqual([]);
    expect(fixture.reload(monitor.id).expected_run_at).toBe(at('2026-11-28T12:00:00Z'));
  });
});
