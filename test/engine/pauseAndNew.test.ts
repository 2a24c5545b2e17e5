import { afterEach, describe, expect, it } from 'vitest';
import { editMonitor, pauseMonitor, resumeMonitor } from '../../agent/engine/monitors/monitorEdits';
import { monitorStatus } from '../../agent/domain/monitors/status';
import { at, engineFixture } from './engineFixture';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
let fixture: ReturnType<typeof engineFixture>;
afterEach(() => fixture?.close());

describe('pause and snooze in the engine', () => {
  it('never fails a paused monitor, however late, and raises nothing for its pulses', async () => {
    fixture = engineFixture(at('2026-11-23T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '* * * * *', duration: 1 });
    pauseMonitor(fixture, 1, monitor.id, null, at('2026-11-23T09:59:00Z'));
    expect(fixture.reload(monitor.id).due_at).toBeNull();
    for (const time of ['2026-11-23T10:05:00Z', '2026-11-24T10:00:00Z', '2027-01-01T00:00:00Z']) await fixture.step(at(time));
    await fixture.pulse(monitor.token, at('2026-11-24T10:00:00Z'), { kind: 'fail', exitCode: 2 });
    const paused = fixture.reload(monitor.id);
    expect(monitorStatus(paused)).toBe('paused');
    expect(paused.is_alerted).toBe(0);
    expect(iso(paused.last_pulse_at)).toBe('2026-11-24T10:00:00.000Z');
    expect(fixture.notifications()).toEqual([]);
    expect(fixture.notifier.popups).toEqual([]);
  });

  it('acknowledges a failure when paused; resuming plans from that moment', async () => {
    fixture = engineFixture(at('2026-11-23T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    await fixture.step(at('2026-11-23T10:06:00Z'));
    expect(fixture.reload(monitor.id).is_alerted).toBe(1);
    pauseMonitor(fixture, 1, monitor.id, null, at('2026-11-23T10:10:00Z'));
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, alert_reason: '' });
    resumeMonitor(fixture, 1, monitor.id, at('2026-11-23T12:20:00Z'));
    const resumed = fixture.reload(monitor.id);
    expect(monitorStatus(resumed)).toBe('new');
    expect(iso(resumed.due_at)).toBe('2026-11-23T13:05:00.000Z');
  });

  it('ends a snooze on time: the earliest due time is its end, and it is planned from that moment', async () => {
    fixture = engineFixture(at('2026-11-23T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 2 });
    pauseMonitor(fixture, 1, monitor.id, at('2026-11-23T11:05:00Z'), at('2026-11-23T10:00:00Z'));
    expect(iso(fixture.store.monitors.earliestDueAt())).toBe('2026-11-23T11:05:00.000Z');
    await fixture.step(at('2026-11-23T11:05:00Z'));
    expect(monitorStatus(fixture.reload(monitor.id))).toBe('paused');
    await fixture.step(at('2026-11-23T11:05:00.001Z'));
    const woken = fixture.reload(monitor.id);
    expect(monitorStatus(woken)).toBe('new');
    expect(iso(woken.due_at)).toBe('2026-11-23T11:12:00.000Z');
    expect(fixture.announced).toContainEqual({ type: 'monitor.changed', companyId: 1, monitorId: monitor.id });
    await fixture.step(at('2026-11-23T11:12:00.001Z'));
    expect(fixture.reload(monitor.id).is_alerted).toBe(1);
  });

  it('gives a grace when the snooze ended while the agent was not running, never an instant failure', async () => {
    fixture = engineFixture(at('2026-11-23T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 2 });
    pauseMonitor(fixture, 1, monitor.id, at('2026-11-23T11:05:00Z'), at('2026-11-23T10:00:00Z'));
    fixture.failer.graceOverdue({ from: null, to: at('2026-11-23T15:00:00Z') });
    expect(monitorStatus(fixture.reload(monitor.id))).toBe('paused');
    await fixture.step(at('2026-11-23T15:00:00Z'));
    const woken = fixture.reload(monitor.id);
    expect(woken.is_alerted).toBe(0);
    expect(iso(woken.due_at)).toBe('2026-11-23T15:02:00.000Z');
  });

  it('counts a pulse that comes after the snooze ended but before the loop woke (a frozen agent), never fails for it', async () => {
    fixture = engineFixture(at('2026-11-23T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '*/10 * * * *', duration: 2 });
    pauseMonitor(fixture, 1, monitor.id, at('2026-11-23T11:05:00Z'), at('2026-11-23T10:00:00Z'));
    // The job's 11:10 pulse is read before the loop's timer for the snooze's end has fired.
    await fixture.pulse(monitor.token, at('2026-11-23T11:10:30Z'));
    const pulsed = fixture.reload(monitor.id);
    expect(monitorStatus(pulsed)).toBe('monitoring');
    expect(iso(pulsed.due_at)).toBe('2026-11-23T11:22:00.000Z');
    await fixture.step(at('2026-11-23T11:15:00Z'));
    expect(fixture.reload(monitor.id).is_alerted).toBe(0);
    expect(fixture.notifications()).toEqual([]);
  });

  it('keeps the catch-up grace of a run in progress when the schedule is edited during it', async () => {
    fixture = engineFixture(at('2026-11-23T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 30, maxRuntime: 30 });
    await fixture.pulse(monitor.token, at('2026-11-23T10:00:00Z'), { kind: 'start', rid: 'r1' });
    // The laptop slept from 10:05 to 11:00: the run's 10:30 deadline passed meanwhile.
    fixture.failer.graceOverdue({ from: at('2026-11-23T10:05:00Z'), to: at('2026-11-23T11:00:00Z') });
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-23T11:30:00.000Z');
    editMonitor(fixture, 1, monitor.id, { schedule: '15 * * * *' }, at('2026-11-23T11:10:00Z'));
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-23T11:30:00.000Z');
    await fixture.step(at('2026-11-23T11:10:01Z'));
    expect(fixture.reload(monitor.id).is_alerted).toBe(0);
  });

  it('keeps a snoozed monitor paused when it is edited, and plans the new schedule at the snooze end', async () => {
    fixture = engineFixture(at('2026-11-23T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    pauseMonitor(fixture, 1, monitor.id, at('2026-11-23T11:00:00Z'), at('2026-11-23T10:00:00Z'));
    editMonitor(fixture, 1, monitor.id, { schedule: '30 * * * *' }, at('2026-11-23T10:10:00Z'));
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-23T11:00:00.000Z');
    await fixture.step(at('2026-11-23T11:00:01Z'));
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-23T11:35:00.000Z');
  });
});

describe('new monitors', () => {
  it('is new until its first pulse, and still fails when its first run is late', async () => {
    fixture = engineFixture(at('2026-11-23T09:58:30Z'));
    const waiting = fixture.monitor({ name: 'waiting', schedule: '0 * * * *', duration: 5 });
    const late = fixture.monitor({ name: 'late', schedule: '0 * * * *', duration: 5 });
    expect(monitorStatus(waiting)).toBe('new');
    expect(waiting.last_pulse_at).toBeNull();
    await fixture.pulse(waiting.token, at('2026-11-23T10:01:00Z'));
    expect(monitorStatus(fixture.reload(waiting.id))).toBe('monitoring');
    await fixture.step(at('2026-11-23T10:05:01Z'));
    expect(monitorStatus(fixture.reload(late.id))).toBe('failed');
    expect(monitorStatus(fixture.reload(waiting.id))).toBe('monitoring');
  });
});
