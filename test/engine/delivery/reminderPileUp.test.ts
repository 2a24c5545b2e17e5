import { afterEach, describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver';
import { at } from '../engineFixture';
import { deliveryFixture } from './deliveryFixture';

/*
 * A reminder tells again an alert the channel was sent. While that alert (the failure, or the last
 * reminder) still waits to be sent on the channel (held by quiet hours, or retried while the
 * receiver is down), a new reminder would only pile up beside it and arrive with it, the same
 * words several times over: it is skipped, and the next one comes N hours on.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
  await fixture?.close();
});

const HOUR = 3_600_000;
const STILL_FAILING = 'App\\Notifications\\MonitorStillFailingNotification';

describe('reminders while the alert they repeat still waits', () => {
  it('a failure held by quiet hours gets no reminders until it is sent, then one every N hours', async () => {
    const r = await new Receiver().start();
    receivers.push(r);
    fixture = deliveryFixture(at('2026-11-21T10:00:00Z'));
    const channel = fixture.channel('webhook', { url: `${r.url}/hook` }, { start: '09:00', end: '18:00', timezone: 'UTC' });
    fixture.store.db.prepare('UPDATE channels SET remind_every_hours = 1 WHERE id = ?').run(channel.id);
    const monitor = await fixture.failMonitor('backup');
    await fixture.worker.runDue();
    const reminders = () => fixture.store.db.prepare('SELECT count(*) FROM notifications WHERE type = ?').pluck().get(STILL_FAILING) as number;

    // Quiet until 18:00: the failure waits, and so would six reminders beside it.
    for (let hour = 1; hour <= 7; hour++) await fixture.step(fixture.clock.now + hour * HOUR);
    expect(reminders()).toBe(0);
    expect(r.requests).toHaveLength(0);

    fixture.clock.now = at('2026-11-21T18:00:00Z');
    await fixture.worker.runDue();
    expect(r.requests.map((q) => q.headers['x-cronbeat-event'])).toEqual(['monitor.failed']);
    await fixture.step(at('2026-11-21T18:30:00Z'));
    expect(reminders()).toBe(1);
    fixture.clock.now = at('2026-11-21T18:30:00Z');
    await fixture.worker.runDue();
    await fixture.step(at('2026-11-21T19:30:00Z'));
    expect(reminders()).toBe(2);
    expect(monitor.id).toBeGreaterThan(0);
  });

  it('a reminder still retried (the receiver down) is not joined by the next ones', async () => {
    const r = await new Receiver([{ status: 200, body: 'ok' }, { status: 503, body: 'down' }]).start();
    receivers.push(r);
    fixture = deliveryFixture(at('2026-11-21T10:00:00Z'));
    const channel = fixture.channel('webhook', { url: `${r.url}/hook` });
    fixture.store.db.prepare('UPDATE channels SET remind_every_hours = 1 WHERE id = ?').run(channel.id);
    await fixture.failMonitor('backup');
    await fixture.worker.runDue();
    const start = fixture.clock.now;
    for (let hour = 1; hour <= 5; hour++) {
      fixture.clock.now = start + hour * HOUR + 1000;
      await fixture.step(fixture.clock.now);
      await fixture.worker.runDue();
    }
    const rows = fixture.store.db.prepare('SELECT status FROM deliveries d JOIN notifications n ON n.id = d.notification_id WHERE n.type = ?').pluck().all(STILL_FAILING);
    expect(rows).toEqual(['pending']);
  });
});
