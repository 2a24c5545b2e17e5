import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BACKOFF_MS, RETRY_FOR_MS } from '../../../agent/domain/channels/delivery';
import { closedPort } from '../../helpers/cli';
import { Receiver } from '../../helpers/receiver';
import { at } from '../engineFixture';
import { deliveryFixture } from './deliveryFixture';
import { MAX_IN_FLIGHT } from '../../../agent/engine/delivery/worker';
import { recordCheck } from '../../../agent/engine/certificates/record';

let fixture: ReturnType<typeof deliveryFixture>;
const receivers: Receiver[] = [];
const receiver = async (...answers: ConstructorParameters<typeof Receiver>) => {
  const r = await new Receiver(...answers).start();
  receivers.push(r);
  return r;
};
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
  await fixture?.close();
});

const SECRET = 'a-webhook-secret-of-some-length';
const MINUTE = 60_000;

describe('the delivery worker', () => {
  it('delivers a failure to a webhook once: POST, the alert as JSON (cronbeat.alert.v1), signed', async () => {
    fixture = deliveryFixture();
    const hook = await receiver();
    const channel = fixture.channel('webhook', { url: `${hook.url}/hooks/cronbeat`, secret: SECRET });
    await fixture.failMonitor('nightly backup');
    expect(fixture.deliveries()).toMatchObject([{ channel_id: channel.id, status: 'pending', attempts: 0 }]);

    await fixture.worker.runDue();
    await fixture.worker.runDue();
    fixture.clock.now += 2 * RETRY_FOR_MS;
    await fixture.worker.runDue();

    expect(hook.requests).toHaveLength(1);
    const [request] = hook.requests;
    const [notification] = fixture.notifications();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks/cronbeat');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toMatchObject({
      schema: 'cronbeat.alert.v1',
      event: 'monitor.failed',
      notification_id: notification.id,
      notification_type: 'App\\Notifications\\MonitorFailedNotification',
      title: 'nightly backup missed its run',
      reason: { kind: 'missed', expected_at: '2026-11-21T09:51:00.000000Z', grace_minutes: 1, resumed_at: null },
      monitor: { name: 'nightly backup', schedule: '* * * * *', timezone: 'UTC', grace_minutes: 1 },
      link: `http://cronbeat.test:8787/#/monitors/${notification.data.type_id}`,
    });
    const expected = `sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`;
    expect(request.headers['x-cronbeat-signature']).toBe(expected);
    expect(request.headers['x-cronbeat-delivery']).toBe(fixture.deliveries()[0].uuid);
    expect(request.headers['x-cronbeat-delivery']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(request.headers['x-cronbeat-event']).toBe('monitor.failed');
    expect(fixture.deliveries()).toMatchObject([{ status: 'sent', attempts: 1, next_attempt_at: null }]);
  });

  it('holds a delivery while the receiver is down and delivers it once, late, when it is back', async () => {
    fixture = deliveryFixture();
    const port = await closedPort();
    fixture.channel('webhook', { url: `http://127.0.0.1:${port}/in`, secret: SECRET });
    await fixture.failMonitor();
    const t0 = fixture.clock.now;

    await fixture.worker.runDue();
    let [delivery] = fixture.deliveries();
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: t0 + BACKOFF_MS[0] });
    expect(delivery.last_error).toMatch(/ECONNREFUSED|fetch failed/);

    // Not due yet: nothing is tried.
    fixture.clock.now = t0 + BACKOFF_MS[0] - 1;
    await fixture.worker.runDue();
    expect(fixture.deliveries()[0].attempts).toBe(1);

    // Down for 3 hours: tried with growing waits, never more often than the backoff allows.
    while (fixture.clock.now < t0 + 3 * 60 * MINUTE) {
      fixture.clock.now += 5 * MINUTE;
      await fixture.worker.runDue();
    }
    const attemptsWhileDown = fixture.deliveries()[0].attempts;
    expect(attemptsWhileDown).toBeGreaterThan(3);
    expect(attemptsWhileDown).toBeLessThan(15);

    const hook = await receiver();
    await hook.stop();
    const back = await new Receiver().start(port);
    receivers.push(back);
    for (let i = 0; i < 24; i++) {
      fixture.clock.now += 5 * MINUTE;
      await fixture.worker.runDue();
    }
    expect(back.requests).toHaveLength(1);
    [delivery] = fixture.deliveries();
    expect(delivery.status).toBe('sent');
    expect(delivery.sent_at).toBeGreaterThan(t0 + 3 * 60 * MINUTE);
  });

  it('retries after a 500 and records the receiver\'s error, then succeeds on the 200', async () => {
    fixture = deliveryFixture();
    const hook = await receiver([{ status: 500, body: 'database on fire' }, { status: 200, body: 'thanks' }]);
    fixture.channel('webhook', { url: hook.url, secret: SECRET });
    await fixture.failMonitor();

    await fixture.worker.runDue();
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: 'The receiver answered HTTP 500: database on fire' });
    fixture.clock.now += BACKOFF_MS[0];
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(2);
    expect(hook.requests[1].body).toBe(hook.requests[0].body);
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
  });

  it('gives up after 24 hours, and says once (one popup) that a channel has failed for an hour', async () => {
    fixture = deliveryFixture();
    const hook = await receiver([{ status: 503, body: 'maintenance' }]);
    fixture.channel('webhook', { url: hook.url, secret: SECRET }, null, 'Ops hook');
    await fixture.failMonitor();
    const t0 = fixture.clock.now;
    await fixture.worker.runDue();
    expect(fixture.notifier.popups.filter((p) => p.title.includes('Ops hook'))).toEqual([]);
    while (fixture.clock.now < t0 + RETRY_FOR_MS + 2 * 60 * MINUTE) {
      fixture.clock.now += 10 * MINUTE;
      await fixture.worker.runDue();
    }
    const [delivery] = fixture.deliveries();
    expect(delivery.status).toBe('failed');
    expect(delivery.next_attempt_at).toBeNull();
    const channelPopups = fixture.notifier.popups.filter((p) => p.title.includes('Ops hook'));
    expect(channelPopups).toEqual([
      expect.objectContaining({ title: 'Alerts to "Ops hook" are failing', route: '/channels' }),
    ]);
    expect(channelPopups[0].body).toContain('HTTP 503');
  });

  it('never sends a delivery again once it is recorded sent, even after a restart', async () => {
    fixture = deliveryFixture();
    const hook = await receiver();
    fixture.channel('webhook', { url: hook.url, secret: SECRET });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    expect(fixture.store.deliveries.releaseInterrupted(fixture.clock.now)).toBe(0);
    fixture.worker.start();
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(1);
  });

  it('sends again a delivery a crash left claimed ("sending"): at least once', async () => {
    fixture = deliveryFixture();
    const hook = await receiver();
    fixture.channel('webhook', { url: hook.url, secret: SECRET });
    await fixture.failMonitor();
    const [pending] = fixture.deliveries();
    expect(fixture.store.deliveries.claim(pending.id, fixture.clock.now, fixture.clock.now + 10_000)).toBe(true); // the crashed run's claim
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(0);
    expect(fixture.store.deliveries.releaseInterrupted(fixture.clock.now)).toBe(1);
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(1);
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('a channel that hangs delays neither another channel nor the failure popup', async () => {
    fixture = deliveryFixture(at('2026-11-21T10:00:00Z'), { timeoutMs: 60_000 });
    const hanging = await receiver(['hang']);
    const fine = await receiver();
    const hangs = fixture.channel('webhook', { url: hanging.url, secret: SECRET }, null, 'hangs');
    fixture.channel('webhook', { url: fine.url, secret: SECRET }, null, 'fine');
    fixture.worker.start();
    await fixture.failMonitor('first');
    expect(fixture.notifier.popups.map((p) => p.title)).toContain('✗ first missed its run');
    await fine.received(1);
    await hanging.received(1);
    // The hanging channel's send is still open; more failures still pop up and reach the other channel.
    await fixture.failMonitor('second');
    expect(fixture.notifier.popups.map((p) => p.title)).toContain('✗ second missed its run');
    await fine.received(2);
    expect(hanging.requests).toHaveLength(1);
    // One send at a time per channel: its second delivery waits behind the hanging one.
    const held = fixture.deliveries().filter((d) => d.channel_id === hangs.id);
    expect(held.map((d) => d.status)).toEqual(['sending', 'pending']);
  });

  it('sleeps while every send slot is taken by hanging channels, though more is due (no busy loop)', async () => {
    fixture = deliveryFixture(at('2026-11-21T10:00:00Z'), { timeoutMs: 60_000 });
    const hanging = await receiver(['hang']);
    for (let i = 0; i <= MAX_IN_FLIGHT; i++) fixture.channel('webhook', { url: hanging.url, secret: SECRET }, null, `hangs ${i}`);
    fixture.worker.start();
    await fixture.failMonitor();
    await hanging.received(MAX_IN_FLIGHT);
    expect(fixture.deliveries().filter((d) => d.status === 'sending')).toHaveLength(MAX_IN_FLIGHT);
    // One delivery is due and no slot is free: the worker waits for a send to end, it does not look again every millisecond.
    const looks = vi.spyOn(fixture.store.deliveries, 'reclaimExpired');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(looks.mock.calls.length).toBeLessThan(5);
  });

  it('gives up a send that takes longer than the timeout and retries it later', async () => {
    fixture = deliveryFixture(at('2026-11-21T10:00:00Z'), { timeoutMs: 200 });
    const hanging = await receiver(['hang']);
    fixture.channel('webhook', { url: hanging.url, secret: SECRET });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: 'No answer in time (timed out).' });
  });

  it('holds deliveries during a channel\'s quiet hours and sends them when they end', async () => {
    fixture = deliveryFixture(at('2026-11-21T22:30:00Z'));
    const hook = await receiver();
    fixture.channel('webhook', { url: hook.url, secret: SECRET }, { start: '23:00', end: '07:00', timezone: 'Europe/Paris' });
    await fixture.failMonitor(); // 23:30 in Paris
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(0);
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'pending', attempts: 0, next_attempt_at: at('2026-11-22T06:00:00Z') });
    fixture.clock.now = at('2026-11-22T05:59:59Z');
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(0);
    fixture.clock.now = at('2026-11-22T06:00:00Z');
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(1);
  });

  it('routes to all channels, or to the monitor\'s own list; a recovery goes where the failure went', async () => {
    fixture = deliveryFixture();
    const a = fixture.channel('webhook', { url: 'http://127.0.0.1:9/a', secret: SECRET }, null, 'a');
    const b = fixture.channel('webhook', { url: 'http://127.0.0.1:9/b', secret: SECRET }, null, 'b');
    const everyone = await fixture.failMonitor('everyone');
    const own = fixture.monitor({ name: 'own', schedule: '* * * * *', duration: 1, now: fixture.clock.now - 10 * MINUTE });
    fixture.store.channelRoutes.setChannelIds(1, { type: 'monitor', id: own.id }, [b.id]);
    await fixture.step(fixture.clock.now);
    const byNotification = () => {
      const out: Record<string, number[]> = {};
      for (const n of fixture.notifications()) out[n.data.title] = fixture.store.deliveries.forNotification(n.id).map((d) => d.channel_id);
      return out;
    };
    expect(byNotification()).toEqual({ 'everyone missed its run': [a.id, b.id], 'own missed its run': [b.id] });

    // The route changes after the failure: the recovery still goes to b only.
    fixture.store.channelRoutes.setChannelIds(1, { type: 'monitor', id: own.id }, [a.id]);
    fixture.clock.now += MINUTE;
    await fixture.pulse(own.token, fixture.clock.now);
    await fixture.pulse(everyone.token, fixture.clock.now);
    expect(byNotification()).toMatchObject({ 'own recovered': [b.id], 'everyone recovered': [a.id, b.id] });
  });

  it('a failure told again (a certificate\'s expiry reminder) after the route changed: its recovery goes to both lists', async () => {
    const now = at('2026-11-21T10:00:00Z');
    fixture = deliveryFixture(now);
    const a = fixture.channel('webhook', { url: 'http://127.0.0.1:9/a', secret: SECRET }, null, 'a');
    const b = fixture.channel('webhook', { url: 'http://127.0.0.1:9/b', secret: SECRET }, null, 'b');
    const cert = fixture.store.certificates.create({ companyId: 1, hostname: 'shop.example.com', port: 443, warnDays: 14, now });
    fixture.store.channelRoutes.setChannelIds(1, { type: 'ssl_certificate', id: cert.id }, [a.id]);
    const served = (fingerprintSha256: string, expiresAt: number) => ({
      reachable: true as const,
      certificate: { validFrom: at('2026-09-01T00:00:00Z'), expiresAt, issuer: 'Example CA', subject: 'CN=shop.example.com', fingerprintSha256 },
      verifyError: null,
    });
    const expiresAt = at('2026-12-01T10:00:00Z');
    recordCheck(fixture, cert.id, served('AB:CD', expiresAt), now, 3_600_000); // expiring: told to a
    fixture.store.channelRoutes.setChannelIds(1, { type: 'ssl_certificate', id: cert.id }, [b.id]);
    recordCheck(fixture, cert.id, served('AB:CD', expiresAt), expiresAt - 6 * 86_400_000, 3_600_000); // its 7-day reminder: to b
    recordCheck(fixture, cert.id, served('EF:01', expiresAt + 90 * 86_400_000), expiresAt - 5 * 86_400_000, 3_600_000); // renewed
    const told = fixture.notifications().map((n) => [n.data.status, fixture.store.deliveries.forNotification(n.id).map((d) => d.channel_id)]);
    expect(told).toEqual([
      ['expiring', [a.id]],
      ['expiring', [b.id]],
      ['valid', [a.id, b.id]],
    ]);
  });
});
