import { afterEach, describe, expect, it } from 'vitest';
import { pauseMonitor, resumeMonitor } from '../../agent/engine/monitors/monitorEdits';
import { at, engineFixture } from './engineFixture';

let fixture: ReturnType<typeof engineFixture>;
afterEach(() => fixture?.close());

// systemd's rules on daylight-saving nights, not cron's (daylightSaving.test.ts has cron's).
describe('a systemd calendar event on daylight-saving nights', () => {
  it('is not expected at a time the clocks jump over: no false alarm that night, the next night expected', async () => {
    // New York, 2026-03-08: 02:00 EST becomes 03:00 EDT, so 02:30 never comes (cron would run at 03:00).
    fixture = engineFixture(at('2026-03-07T12:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*-*-* 02:30:00', timezone: 'America/New_York', duration: 30 });
    expect(monitor.expected_run_at).toBe(at('2026-03-09T06:30:00Z'));
    await fixture.step(at('2026-03-08T09:00:00Z'));
    expect(fixture.notifications()).toEqual([]);
    await fixture.step(at('2026-03-09T07:00:01Z'));
    expect(fixture.alertReason(monitor.id)).toBe('Missed: the run due 2026-03-09 02:30 America/New_York (06:30 UTC) did not come (grace 30 min); no run has come yet');
  });

  it('runs a repeated time of a fall-back night once: after the first copy answers, the second is not awaited', async () => {
    // New York, 2026-11-01: 02:00 EDT becomes 01:00 EST; 01:30 comes twice (05:30Z and 06:30Z).
    fixture = engineFixture(at('2026-10-31T12:00:00Z'));
    const monitor = fixture.monitor({ schedule: '*-*-* 01:30:00', timezone: 'America/New_York', duration: 20 });
    expect(monitor.expected_run_at).toBe(at('2026-11-01T05:30:00Z'));
    await fixture.pulse(monitor.token, at('2026-11-01T05:31:00Z'));
    expect(fixture.reload(monitor.id).expected_run_at).toBe(at('2026-11-02T06:30:00Z'));
    await fixture.step(at('2026-11-01T07:00:00Z'));
    expect(fixture.notifications()).toEqual([]);
  });

  it('waits for whichever of its lines comes first', async () => {
    fixture = engineFixture(at('2026-03-02T00:00:00Z')); // a Monday
    const monitor = fixture.monitor({ schedule: 'Mon 09:00\nMon 06:00 UTC', timezone: 'Europe/Paris', duration: 10 });
    expect(monitor.expected_run_at).toBe(at('2026-03-02T06:00:00Z'));
    await fixture.pulse(monitor.token, at('2026-03-02T06:01:00Z'));
    expect(fixture.reload(monitor.id).expected_run_at).toBe(at('2026-03-02T08:00:00Z'));
  });
});

describe('a period (@every)', () => {
  it('expects a run one period after creation, then one period after each pulse', async () => {
    const created = at('2026-03-01T10:00:00Z');
    fixture = engineFixture(created);
    const monitor = fixture.monitor({ schedule: '@every 90m', duration: 15 });
    expect(monitor.expected_run_at).toBe(at('2026-03-01T11:30:00Z'));
    expect(monitor.due_at).toBe(at('2026-03-01T11:45:00Z'));

    // An early heartbeat counts, and the next is one period after it.
    await fixture.pulse(monitor.token, at('2026-03-01T11:00:00Z'));
    expect(fixture.reload(monitor.id)).toMatchObject({ expected_run_at: at('2026-03-01T12:30:00Z'), due_at: at('2026-03-01T12:45:00Z') });
    await fixture.step(at('2026-03-01T12:44:59Z'));
    expect(fixture.notifications()).toEqual([]);
  });

  it('fails when a period and its grace pass without a pulse, and a pulse recovers it and restarts the period', async () => {
    fixture = engineFixture(at('2026-03-01T10:00:00Z'));
    const monitor = fixture.monitor({ schedule: '@every 1h', duration: 5 });
    await fixture.step(at('2026-03-01T11:05:01Z'));
    expect(fixture.reload(monitor.id).is_alerted).toBe(1);
    await fixture.pulse(monitor.token, at('2026-03-01T11:20:00Z'));
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, expected_run_at: at('2026-03-01T12:20:00Z') });
  });

  it('is not moved back by an old pulse replayed late (a spool)', async () => {
    fixture = engineFixture(at('2026-03-01T10:00:00Z'));
    const monitor = fixture.monitor({ schedule: '@every 30m', duration: 5 });
    await fixture.pulse(monitor.token, at('2026-03-01T10:25:00Z'));
    expect(fixture.reload(monitor.id).expected_run_at).toBe(at('2026-03-01T10:55:00Z'));
    // Sent at 10:10, replayed at 10:26.
    await fixture.pulse(monitor.token, at('2026-03-01T10:26:00Z'), { at: at('2026-03-01T10:10:00Z') });
    expect(fixture.reload(monitor.id).expected_run_at).toBe(at('2026-03-01T10:55:00Z'));
  });
});

describe('calendar events and periods over a sleep and a pause, as cron schedules', () => {
  it('a calendar run whose deadline passed while the machine slept gets a fresh grace, and its late pulse answers it', async () => {
    fixture = engineFixture(at('2026-03-02T00:00:00Z'));
    const monitor = fixture.monitor({ schedule: 'Mon..Fri 02:30 UTC', duration: 30 });
    expect(monitor.expected_run_at).toBe(at('2026-03-02T02:30:00Z'));
    // Asleep from 02:00 to 09:00: the 02:30 run's deadline (03:00) passed meanwhile.
    const wokeAt = at('2026-03-02T09:00:00Z');
    fixture.failer.graceOverdue({ from: at('2026-03-02T02:00:00Z'), to: wokeAt });
    expect(fixture.reload(monitor.id).due_at).toBe(at('2026-03-02T09:30:00Z'));
    await fixture.step(wokeAt + 1);
    expect(fixture.notifications()).toEqual([]);
    // The job's spool replays its pulse of 02:31.
    await fixture.pulse(monitor.token, at('2026-03-02T09:01:00Z'), { at: at('2026-03-02T02:31:00Z') });
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, expected_run_at: at('2026-03-03T02:30:00Z') });
  });

  it('a period resumed after a pause waits one period from the resume, not from the last pulse', async () => {
    fixture = engineFixture(at('2026-03-01T10:00:00Z'));
    const monitor = fixture.monitor({ schedule: '@every 2h', duration: 10 });
    pauseMonitor(fixture, 1, monitor.id, null, at('2026-03-01T10:30:00Z'));
    await fixture.step(at('2026-03-01T15:00:00Z'));
    expect(fixture.notifications()).toEqual([]);
    resumeMonitor(fixture, 1, monitor.id, at('2026-03-01T15:00:00Z'));
    expect(fixture.reload(monitor.id)).toMatchObject({ expected_run_at: at('2026-03-01T17:00:00Z'), due_at: at('2026-03-01T17:10:00Z') });
  });
});
