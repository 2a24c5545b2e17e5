import { afterEach, describe, expect, it } from 'vitest';
import type { Alert } from '../../../agent/domain/alerts/alert';
import { editMonitor } from '../../../agent/engine/monitors/monitorEdits';
import { at, engineFixture } from '../engineFixture';

/*
 * A new grace (or, for a period, which has no clock time, a new zone) does not move a monitor's
 * runs: it keeps waiting for the run it waited for. Planned again from the edit instead, the run
 * under way was forgotten: the admin who gives a late nightly backup more time at 02:30 heard of
 * its miss the next night, and a shorter grace hid the run it had just made late.
 */

let fixture: ReturnType<typeof engineFixture>;
afterEach(() => fixture?.close());

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const alerts = () => fixture.notifications().map((n) => n.alert as Alert);

describe('an edit that does not move the runs', () => {
  it('a longer grace keeps the run it waited for, with the new grace: its miss is told that night', async () => {
    fixture = engineFixture(at('2026-11-26T12:00:00Z'));
    const monitor = fixture.monitor({ schedule: '0 2 * * *', duration: 60 });
    editMonitor(fixture, 1, monitor.id, { duration: 120 }, at('2026-11-27T02:30:00Z'));
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-27T04:00:00.000Z');
    await fixture.step(at('2026-11-27T04:00:01Z'));
    expect(alerts().map((a) => [a.event, a.expected_at])).toEqual([['monitor.failed', '2026-11-27T02:00:00.000000Z']]);
  });

  it('a shorter grace the run is already late by fails it, as it is: late by the grace asked for', async () => {
    fixture = engineFixture(at('2026-11-26T12:00:00Z'));
    const monitor = fixture.monitor({ schedule: '0 2 * * *', duration: 60 });
    editMonitor(fixture, 1, monitor.id, { duration: 10 }, at('2026-11-27T02:30:00Z'));
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-27T02:10:00.000Z');
    await fixture.step(at('2026-11-27T02:30:01Z'));
    expect(alerts().map((a) => [a.expected_at, a.reason])).toEqual([
      ['2026-11-27T02:00:00.000000Z', { kind: 'missed', expected_at: '2026-11-27T02:00:00.000000Z', grace_minutes: 10, resumed_at: null, last_run_at: null }],
    ]);
  });

  it('a period keeps counting from its last run when its grace or its zone changes', async () => {
    fixture = engineFixture(at('2026-11-27T09:00:00Z'));
    const monitor = fixture.monitor({ schedule: '@every 1h', duration: 5 });
    await fixture.pulse(monitor.token, at('2026-11-27T10:00:00Z'));
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-27T11:05:00.000Z');
    editMonitor(fixture, 1, monitor.id, { duration: 10 }, at('2026-11-27T10:30:00Z'));
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-27T11:10:00.000Z');
    editMonitor(fixture, 1, monitor.id, { timezone: 'Europe/Paris' }, at('2026-11-27T10:40:00Z'));
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-27T11:10:00.000Z');
  });

  it('a new schedule, or a new zone for a clock schedule, still plans from the edit', async () => {
    fixture = engineFixture(at('2026-11-26T12:00:00Z'));
    const monitor = fixture.monitor({ schedule: '0 2 * * *', duration: 60 });
    editMonitor(fixture, 1, monitor.id, { timezone: 'Europe/Paris' }, at('2026-11-27T02:30:00Z'));
    // 02:00 in Paris is 01:00 UTC: the next one after the edit is the next night's.
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-28T02:00:00.000Z');
    editMonitor(fixture, 1, monitor.id, { schedule: '0 4 * * *' }, at('2026-11-27T02:40:00Z'));
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-27T04:00:00.000Z');
  });
});
