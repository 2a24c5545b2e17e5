import { afterEach, describe, expect, it } from 'vitest';
import { PULSES_KEPT_PER_MONITOR } from '../../agent/db/pulses';
import { pauseMonitor, resumeMonitor } from '../../agent/engine/monitors/monitorEdits';
import { at, engineFixture } from './engineFixture';

let fixture: ReturnType<typeof engineFixture>;
afterEach(() => fixture?.close());

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

// Spec 2.3: the common fields of data, then the fields for data.type monitor, in that order.
const COMMON = ['type', 'type_id', 'project_id', 'status', 'title', 'description', 'timezone', 'icon'];
const MONITOR = [
  'monitor_name', 'monitor_token', 'monitor_schedule', 'monitor_last_run_at', 'monitor_duration',
  'monitor_is_alerted', 'monitor_alert_reason',
];

describe('monitor notifications', () => {
  it('carry exactly the data fields of the spec, typed as the spec says', async () => {
    fixture = engineFixture(at('2026-11-21T08:00:00Z'));
    const monitor = fixture.monitor({ name: 'Nightly backup', schedule: '0 10 * * *', timezone: 'Europe/Paris', duration: 5, projectId: 7 });
    await fixture.step(at('2026-11-21T09:06:00Z'));
    await fixture.pulse(monitor.token, at('2026-11-21T09:10:00Z'));
    const [failed, recovered] = fixture.notifications();

    expect(failed).toMatchObject({ type: 'App\\Notifications\\MonitorFailedNotification', notifiable_type: 'App\\Models\\Company', notifiable_id: 1, read_at: null });
    expect(Object.keys(failed.data)).toEqual([...COMMON, ...MONITOR]);
    expect(failed.data).toEqual({
      type: 'monitor',
      type_id: monitor.id,
      project_id: 7,
      status: 'failed',
      title: 'Nightly backup missed its run',
      description: 'Missed: the run due 2026-11-21 10:00 Europe/Paris (09:00 UTC) did not come (grace 5 min); no run has come yet',
      timezone: 'Europe/Paris',
      icon: 'fa-solid fa-heart-crack',
      monitor_name: 'Nightly backup',
      monitor_token: monitor.token,
      monitor_schedule: '0 10 * * *',
      monitor_last_run_at: '2026-11-21T08:00:00.000000Z',
      monitor_duration: 5,
      monitor_is_alerted: 1,
      monitor_alert_reason: 'Missed: the run due 2026-11-21 10:00 Europe/Paris (09:00 UTC) did not come (grace 5 min); no run has come yet',
    });
    expect((failed.data as { monitor_last_run_at: string }).monitor_last_run_at).toMatch(TIMESTAMP);

    expect(recovered.type).toBe('App\\Notifications\\MonitorRecoveredNotification');
    expect(Object.keys(recovered.data)).toEqual([...COMMON, ...MONITOR]);
    expect(recovered.data).toMatchObject({
      type: 'monitor',
      type_id: monitor.id,
      status: 'recovered',
      icon: 'fa-solid fa-heart-pulse',
      monitor_last_run_at: '2026-11-21T09:10:00.000000Z',
      monitor_is_alerted: 0,
      monitor_alert_reason: '',
    });
  });
});

describe('run history', () => {
  it(`keeps the newest ${PULSES_KEPT_PER_MONITOR} pulses of each monitor`, async () => {
    fixture = engineFixture(at('2026-11-21T08:00:00Z'));
    const busy = fixture.monitor({ name: 'busy', schedule: '* * * * *', duration: 5 });
    const quiet = fixture.monitor({ name: 'quiet', schedule: '* * * * *', duration: 5 });
    await fixture.pulse(quiet.token, at('2026-11-21T08:00:01Z'));
    const start = at('2026-11-21T08:00:00Z');
    for (let i = 0; i < PULSES_KEPT_PER_MONITOR + 5; i++) await fixture.pulse(busy.token, start + i * 1000);
    expect(fixture.store.pulses.count(busy.id)).toBe(PULSES_KEPT_PER_MONITOR);
    expect(fixture.store.pulses.count(quiet.id)).toBe(1);
    const oldest = fixture.store.pulses.page(busy.id, 1, PULSES_KEPT_PER_MONITOR - 1)[0];
    expect(oldest.received_at).toBe(start + 5 * 1000);
  });

  it('counts every line it keeps, pauses and resumes included, whichever way the monitor was written', async () => {
    fixture = engineFixture(at('2026-11-21T08:00:00Z'));
    const monitor = fixture.monitor({ name: 'busy', schedule: '* * * * *', duration: 5 });
    const start = at('2026-11-21T08:00:00Z');
    const kept = () => fixture.store.db.prepare('SELECT pulses_kept FROM monitors WHERE id = ?').pluck().get(monitor.id);
    for (let i = 0; i < PULSES_KEPT_PER_MONITOR - 2; i++) await fixture.pulse(monitor.token, start + i * 1000);
    let now = start + PULSES_KEPT_PER_MONITOR * 1000;
    // A failure (the update that reads the monitor back), a pause, a pulse while paused (noted only), a resume, a success.
    await fixture.pulse(monitor.token, (now += 1000), { kind: 'fail' });
    pauseMonitor(fixture, 1, monitor.id, null, (now += 1000));
    await fixture.pulse(monitor.token, (now += 1000));
    resumeMonitor(fixture, 1, monitor.id, (now += 1000));
    await fixture.pulse(monitor.token, (now += 1000));
    expect(fixture.store.pulses.count(monitor.id)).toBe(PULSES_KEPT_PER_MONITOR);
    expect(kept()).toBe(PULSES_KEPT_PER_MONITOR);
    expect(fixture.store.pulses.page(monitor.id, 5, 0).map((p) => p.kind)).toEqual(['success', 'resume', 'success', 'pause', 'fail']);
    // Three lines past the limit: the three oldest are gone.
    expect(fixture.store.pulses.page(monitor.id, 1, PULSES_KEPT_PER_MONITOR - 1)[0].received_at).toBe(start + 3 * 1000);
  });
});
