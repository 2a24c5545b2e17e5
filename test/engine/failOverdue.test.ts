import { afterEach, describe, expect, it } from 'vitest';
import { at, engineFixture } from './engineFixture';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
let fixture: ReturnType<typeof engineFixture>;
afterEach(() => fixture?.close());

describe('the loop\'s step: late pulses', () => {
  it('leaves a monitor whose pulse came on time alone', async () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    expect(iso(monitor.due_at)).toBe('2026-11-21T10:05:00.000Z');
    expect(await fixture.pulse(monitor.token, at('2026-11-21T10:02:00Z'))).toBe(true);
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-21T11:05:00.000Z');
    await fixture.step(at('2026-11-21T10:06:00Z'));
    expect(fixture.reload(monitor.id).is_alerted).toBe(0);
    expect(fixture.notifications()).toEqual([]);
    expect(fixture.notifier.popups).toEqual([]);
  });

  it('counts a pulse exactly at the deadline as on time, and fails one moment after it', async () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    const onTime = fixture.monitor({ name: 'on-time', schedule: '0 * * * *', duration: 5 });
    const late = fixture.monitor({ name: 'late', schedule: '0 * * * *', duration: 5 });
    await fixture.step(at('2026-11-21T10:05:00Z'));
    expect(fixture.reload(late.id).is_alerted).toBe(0);
    await fixture.pulse(onTime.token, at('2026-11-21T10:05:00Z'));
    await fixture.step(at('2026-11-21T10:05:00.001Z'));
    expect(fixture.reload(onTime.id).is_alerted).toBe(0);
    const failed = fixture.reload(late.id);
    expect(failed.is_alerted).toBe(1);
    expect(fixture.alertReason(late.id)).toBe('Missed: the run due 2026-11-21 10:00 UTC did not come (grace 5 min); no run has come yet');
    expect(failed.due_at).toBeNull();
  });

  it('says the missed run in the monitor zone and in UTC', async () => {
    fixture = engineFixture(at('2026-11-21T08:00:00Z'));
    const monitor = fixture.monitor({ schedule: '0 10 * * *', timezone: 'Europe/Paris', duration: 5 });
    await fixture.step(at('2026-11-21T09:06:00Z'));
    expect(fixture.alertReason(monitor.id)).toBe(
      'Missed: the run due 2026-11-21 10:00 Europe/Paris (09:00 UTC) did not come (grace 5 min); no run has come yet',
    );
  });

  it('fails an every-minute monitor with duration 1 about two minutes after creation, once', async () => {
    fixture = engineFixture(at('2026-11-21T10:00:20Z'));
    const monitor = fixture.monitor({ schedule: '* * * * *', duration: 1 });
    expect(iso(monitor.due_at)).toBe('2026-11-21T10:02:00.000Z');
    await fixture.step(at('2026-11-21T10:01:59Z'));
    expect(fixture.reload(monitor.id).is_alerted).toBe(0);
    await fixture.step(at('2026-11-21T10:02:01Z'));
    await fixture.step(at('2026-11-21T10:05:00Z'));
    await fixture.step(at('2026-11-21T11:00:00Z'));
    expect(fixture.reload(monitor.id).is_alerted).toBe(1);
    expect(fixture.notifications()).toHaveLength(1);
    expect(fixture.notifier.popups).toEqual([
      { title: '✗ backup missed its run', body: 'Missed: the run due Sat 21 Nov 10:01 UTC did not come (grace 1 min); no run has come yet.', route: `/monitors/${monitor.id}` },
    ]);
  });

  it('recovers a failed monitor on its next success pulse', async () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    await fixture.step(at('2026-11-21T10:06:00Z'));
    fixture.notifier.take();
    await fixture.pulse(monitor.token, at('2026-11-21T10:20:00Z'));
    const recovered = fixture.reload(monitor.id);
    expect(recovered).toMatchObject({ is_alerted: 0, alert_reason: '', last_run_at: at('2026-11-21T10:20:00Z') });
    expect(iso(recovered.due_at)).toBe('2026-11-21T11:05:00.000Z');
    const [, recovery] = fixture.notifications();
    expect(recovery.type).toBe('App\\Notifications\\MonitorRecoveredNotification');
    expect(recovery.data).toMatchObject({ status: 'recovered', monitor_is_alerted: 0, monitor_alert_reason: '' });
    expect(fixture.notifier.take()).toEqual([
      { title: '✓ backup recovered', body: 'Recovered after 14 min.', route: `/monitors/${monitor.id}` },
    ]);
  });

  it('raises nothing more while failed, whatever pulses a start or a failure bring', async () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    await fixture.step(at('2026-11-21T10:06:00Z'));
    await fixture.pulse(monitor.token, at('2026-11-21T11:00:00Z'), { kind: 'start' });
    await fixture.pulse(monitor.token, at('2026-11-21T11:00:05Z'), { kind: 'fail', exitCode: 2 });
    await fixture.step(at('2026-11-21T13:00:00Z'));
    expect(fixture.notifications()).toHaveLength(1);
    expect(fixture.notifier.popups).toHaveLength(1);
    expect(fixture.reload(monitor.id).due_at).toBeNull();
  });
});

describe('pulses that report failure', () => {
  it('fails at once on /fail, and on a non-zero exit code, with the code in the reason', async () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    const failing = fixture.monitor({ name: 'fail', schedule: '0 * * * *', duration: 5 });
    const exiting = fixture.monitor({ name: 'exit', schedule: '0 * * * *', duration: 5 });
    const fine = fixture.monitor({ name: 'fine', schedule: '0 * * * *', duration: 5 });
    await fixture.pulse(failing.token, at('2026-11-21T10:00:10Z'), { kind: 'fail' });
    await fixture.pulse(exiting.token, at('2026-11-21T10:00:10Z'), { kind: 'fail', exitCode: 3 });
    await fixture.pulse(fine.token, at('2026-11-21T10:00:10Z'), { kind: 'success', exitCode: 0 });
    expect(fixture.reload(failing.id)).toMatchObject({ is_alerted: 1, due_at: null });
    expect(fixture.alertReason(failing.id)).toBe('Failed: the job reported failure');
    expect(fixture.reload(exiting.id).is_alerted).toBe(1);
    expect(fixture.alertReason(exiting.id)).toBe('Failed: the job exited with code 3');
    expect(fixture.reload(fine.id).is_alerted).toBe(0);
    expect(fixture.notifier.popups.map((p) => p.title)).toEqual(['✗ fail failed', '✗ exit failed (exit 3)']);
    expect(fixture.notifications().map((n) => n.data.description).sort()).toEqual(['Failed: the job exited with code 3', 'Failed: the job reported failure']);
  });
});

describe('started runs', () => {
  it('fails a started run as stuck at its start plus its max run time', async () => {
    fixture = engineFixture(at('2026-11-21T08:00:00Z'));
    const monitor = fixture.monitor({ schedule: '0 10 * * *', timezone: 'Europe/Paris', duration: 5, maxRuntime: 30 });
    await fixture.pulse(monitor.token, at('2026-11-21T09:00:05Z'), { kind: 'start', rid: 'r1' });
    const running = fixture.reload(monitor.id);
    expect(running.running_since).toBe(at('2026-11-21T09:00:05Z'));
    expect(iso(running.due_at)).toBe('2026-11-21T09:30:05.000Z');
    await fixture.step(at('2026-11-21T09:30:05Z'));
    expect(fixture.reload(monitor.id).is_alerted).toBe(0);
    await fixture.step(at('2026-11-21T09:30:06Z'));
    expect(fixture.alertReason(monitor.id)).toBe(
      'Stuck: started 2026-11-21 10:00 Europe/Paris (09:00 UTC), still running after 30 min (its max run time)',
    );
  });

  it('pairs an end with its start by rid, or with the run in progress, and keeps the duration', async () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 30 });
    await fixture.pulse(monitor.token, at('2026-11-21T10:00:00Z'), { kind: 'start', rid: 'a' });
    await fixture.pulse(monitor.token, at('2026-11-21T10:00:01Z'), { kind: 'start', rid: 'b' });
    await fixture.pulse(monitor.token, at('2026-11-21T10:00:42Z'), { kind: 'success', rid: 'a' });
    expect(fixture.reload(monitor.id).running_rid).toBe('b'); // a's end leaves b running
    await fixture.pulse(monitor.token, at('2026-11-21T10:01:01Z'), { kind: 'fail', exitCode: 1, rid: 'b' });
    await fixture.pulse(monitor.token, at('2026-11-21T11:00:00Z'), { kind: 'start' });
    await fixture.pulse(monitor.token, at('2026-11-21T11:00:07Z'), { kind: 'success' });
    await fixture.pulse(monitor.token, at('2026-11-21T11:30:00Z'), { kind: 'success' });
    const history = fixture.store.pulses.page(monitor.id, 10, 0).reverse();
    expect(history.map((p) => [p.kind, p.rid, p.duration_ms])).toEqual([
      ['start', 'a', null],
      ['start', 'b', null],
      ['success', 'a', 42_000],
      ['fail', 'b', 60_000],
      ['start', null, null],
      ['success', null, 7_000],
      ['success', null, null],
    ]);
    expect(fixture.reload(monitor.id).running_since).toBeNull();
  });

  it('credits an end to the run its start answered, even when it ends just before the next run', async () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 90 });
    await fixture.pulse(monitor.token, at('2026-11-21T10:00:00Z'), { kind: 'start' });
    await fixture.pulse(monitor.token, at('2026-11-21T10:59:30Z'));
    // The end answers 10:00 (its start's run), so the 11:00 run is still awaited.
    expect(iso(fixture.reload(monitor.id).expected_run_at)).toBe('2026-11-21T11:00:00.000Z');
  });
});

describe('popups per step', () => {
  it('raises one notification and one popup per failure when two fail together', async () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    fixture.monitor({ name: 'backup', schedule: '0 * * * *', duration: 5 });
    fixture.monitor({ name: 'db-dump', schedule: '0 * * * *', duration: 5 });
    await fixture.step(at('2026-11-21T10:06:00Z'));
    expect(fixture.notifications().map((n) => n.data.title).sort()).toEqual(['backup missed its run', 'db-dump missed its run']);
    expect(fixture.notifier.popups.map((p) => p.title).sort()).toEqual(['✗ backup missed its run', '✗ db-dump missed its run']);
    const events = fixture.announced.filter((e) => e.type === 'notification.created');
    expect(events).toHaveLength(2);
  });

  it('raises one summary popup when more than three fail together', async () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) fixture.monitor({ name, schedule: '0 * * * *', duration: 5 });
    await fixture.step(at('2026-11-21T10:06:00Z'));
    expect(fixture.notifications()).toHaveLength(7);
    expect(fixture.notifier.popups).toEqual([{ title: '7 monitors missed', body: 'Missed: a, b, c, d, e and 2 more', route: '/monitors' }]);
  });

  it('fails what is due with an indexed lookup', () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    const plan = fixture.store.db
      .prepare('EXPLAIN QUERY PLAN SELECT * FROM monitors WHERE due_at < 1 AND is_alerted = 0 AND deleted_at IS NULL ORDER BY due_at LIMIT 5')
      .all() as Array<{ detail: string }>;
    expect(plan.map((row) => row.detail).join(' ')).toContain('monitors_due');
  });
});

describe('downtime grace', () => {
  it('gives monitors overdue when Cronbeat resumes their duration again, then one summary popup', async () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    const backup = fixture.monitor({ name: 'backup', schedule: '0 * * * *', duration: 5 });
    const dump = fixture.monitor({ name: 'db-dump', schedule: '0 * * * *', duration: 5 });
    const later = fixture.monitor({ name: 'later', schedule: '0 18 * * *', duration: 5 });
    const resumedAt = at('2026-11-21T12:00:00Z');
    expect(fixture.failer.graceOverdue({ from: null, to: resumedAt })).toBe(2);
    expect(fixture.announced).toEqual([
      { type: 'monitor.changed', companyId: 1, monitorId: backup.id },
      { type: 'monitor.changed', companyId: 1, monitorId: dump.id },
    ]);
    expect(iso(fixture.reload(backup.id).due_at)).toBe('2026-11-21T12:05:00.000Z');
    expect(iso(fixture.reload(later.id).due_at)).toBe('2026-11-21T18:05:00.000Z');
    await fixture.step(resumedAt + 1);
    expect(fixture.notifications()).toEqual([]);

    await fixture.pulse(dump.token, at('2026-11-21T12:03:00Z'));
    await fixture.step(at('2026-11-21T12:05:01Z'));
    expect(fixture.reload(dump.id).is_alerted).toBe(0);
    expect(fixture.alertReason(backup.id)).toBe(
      'Missed: the run due 2026-11-21 10:00 UTC did not come, nor within 5 min of Cronbeat resuming at 2026-11-21 12:00 UTC; no run has come yet',
    );
    expect(fixture.notifier.popups).toEqual([
      {
        title: '1 monitor missed',
        body: 'Missed: backup\nTheir runs were due while Cronbeat was not running, and no pulse came since.',
        route: '/monitors',
      },
    ]);
  });
});

describe('a burst larger than a slice', () => {
  it('is failed in one step over many slices, a pulse answered in between counting, each failure once, one summary popup at the end', async () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    // Far more than one slice fails (a slice is milliseconds, a failure a transaction of its own after the first).
    const total = 500;
    const last = fixture.store.db.transaction(() => {
      for (let i = 1; i < total; i++) fixture.monitor({ name: `job-${i}`, schedule: '0 * * * *', duration: 5 });
      // Due a minute after the others, so the step reaches it last.
      return fixture.monitor({ name: 'last', schedule: '0 * * * *', duration: 6 });
    })();
    const now = at('2026-11-21T10:06:30Z');
    let stepEnded = false;
    const step = fixture.step(now).then(() => (stepEnded = true));
    // Sent once the step is under way: the pulse batch stores it between two of its slices.
    let answeredDuringStep: boolean | undefined;
    const pulse = fixture.pulse(last.token, now).then((found) => {
      answeredDuringStep = !stepEnded;
      return found;
    });
    await step;
    expect(await pulse).toBe(true);
    expect(answeredDuringStep).toBe(true);
    // The step read the monitor as the pulse left it: its run came, late but before the step reached it.
    expect(fixture.reload(last.id)).toMatchObject({ is_alerted: 0, expected_run_at: at('2026-11-21T11:00:00Z') });
    const perMonitor = fixture.store.db
      .prepare(`SELECT json_extract(data, '$.type_id') AS monitor, count(*) AS n FROM notifications GROUP BY monitor HAVING n != 1`)
      .all();
    expect(perMonitor).toEqual([]);
    expect(fixture.store.notifications.count(1)).toBe(total - 1);
    expect(fixture.notifier.popups).toEqual([expect.objectContaining({ title: `${total - 1} monitors missed` })]);
  });
});
