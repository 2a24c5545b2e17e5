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

describe('what is planned from a moment recorded "tomorrow"', () => {
  const settings = { url: 'http://127.0.0.1:9/hook', secret: 'x'.repeat(16) };

  it('a reminder comes its hours after the correction, and a dead watcher is quiet two reports after it', async () => {
    const ahead = at('2026-11-22T10:00:30Z');
    fixture = engineFixture(ahead);
    const channel = fixture.store.channels.create({ companyId: 1, name: 'ops', kind: 'webhook', settings, quietHours: null, remindEveryHours: 2, now: ahead });
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    fixture.store.channelRoutes.setChannelIds(1, { type: 'monitor', id: monitor.id }, [channel.id]);
    await fixture.pulse(monitor.token, at('2026-11-22T11:00:00Z'), { kind: 'fail', exitCode: 1 });
    const server = fixture.store.servers.create({ companyId: 1, identifier: 'web-1', name: 'web 1', ipAddress: '10.0.0.5', now: ahead });
    fixture.store.serverReports.record({ serverId: server.id, now: ahead, intervalSeconds: 60, jobs: 2, quietAlertAt: at('2026-11-22T10:03:30Z') });

    const back = at('2026-11-21T11:00:30Z');
    fixture.failer.clockSetBack(back);
    expect(fixture.store.db.prepare('SELECT next_at FROM reminders').pluck().get()).toBe(at('2026-11-21T13:00:30Z'));
    expect(fixture.store.serverReports.find(server.id)).toMatchObject({ last_report_at: back, quiet_alert_at: at('2026-11-21T11:03:30Z') });

    await fixture.step(at('2026-11-21T13:00:31Z'));
    const statuses = fixture.notifications().map((n) => n.data.status);
    expect(statuses.filter((s) => s === 'quiet')).toHaveLength(1);
    // Taken at 13:00:31 (its delivery waits for no outbox here, so it is not sent): the next one two hours on.
    expect(fixture.store.db.prepare('SELECT next_at FROM reminders').pluck().get()).toBe(at('2026-11-21T15:00:31Z'));
  });
});
