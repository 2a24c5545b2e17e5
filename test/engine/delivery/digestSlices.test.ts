import { afterEach, describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver';
import { GROUP_WAIT_MS } from '../../../agent/domain/alerts/digest';
import { digestWebhookAlert, webhookDigest, webhookDigestJson } from '../../../agent/domain/alerts/digestMessage';
import { deliveryFixture } from './deliveryFixture';

/*
 * A burst's digest of thousands of alerts: folding them into it and settling them once it is sent
 * were one statement each over all of them, holding every pulse meanwhile. They go a page at a time
 * now, pulses recorded in between; what a stop leaves half settled is settled at the next start.
 * Counted by what the database shows between turns of the event loop, never by timing.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
  await fixture?.close();
});

/** `count` monitors that all fail in one step of the scheduler. */
async function failMany(count: number) {
  for (let i = 0; i < count; i++) fixture.monitor({ name: `m${i + 1}`, schedule: '* * * * *', duration: 1, now: fixture.clock.now - 10 * 60_000 });
  await fixture.step(fixture.clock.now);
}

describe("a burst's digest in slices", () => {
  it('folds and settles its alerts over many steps, pulses recorded between them, and sends each alert once', async () => {
    const burst = 3_000;
    fixture = deliveryFixture();
    const hook = await new Receiver().start();
    stops.push(() => hook.stop());
    fixture.channel('webhook', { url: `${hook.url}/in` });
    await failMany(burst);
    const pulsed = fixture.monitor({ name: 'pulsed', schedule: '* * * * *', duration: 60, now: fixture.clock.now });
    await fixture.worker.runDue(); // held: the rest of the burst may still come
    fixture.clock.now += GROUP_WAIT_MS;

    const counts = fixture.store.db.prepare(
      `SELECT count(*) FILTER (WHERE folded_into IS NOT NULL) AS folded, count(*) FILTER (WHERE status = 'sent') AS sent FROM deliveries`,
    );
    const seen: Array<{ folded: number; sent: number }> = [];
    let pulsesBetween = 0;
    let draining = true;
    const drained = fixture.worker
      .runDue()
      .then(() => fixture.worker.runDue())
      .finally(() => (draining = false));
    while (draining) {
      const now = counts.get() as { folded: number; sent: number };
      seen.push(now);
      const between = (n: number) => n > 1 && n < burst;
      if ((between(now.folded) || between(now.sent)) && (await fixture.pulse(pulsed.token, fixture.clock.now))) pulsesBetween++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await drained;

    const partly = (key: 'folded' | 'sent') => new Set(seen.map((s) => s[key]).filter((n) => n > 1 && n < burst)).size;
    expect(partly('folded')).toBeGreaterThan(1);
    expect(partly('sent')).toBeGreaterThan(1);
    expect(pulsesBetween).toBeGreaterThan(1);
    expect(hook.requests).toHaveLength(1);
    expect(JSON.parse(hook.requests[0].body)).toMatchObject({ event: 'digest', count: burst });
    expect(new Set(fixture.deliveries().map((d) => d.status))).toEqual(new Set(['sent']));
  });

  it('alerts of a digest sent just before the agent stopped are settled as it was at the next start, and not sent again', async () => {
    fixture = deliveryFixture();
    const hook = await new Receiver().start();
    stops.push(() => hook.stop());
    fixture.channel('webhook', { url: `${hook.url}/in` });
    await failMany(8);
    fixture.clock.now += GROUP_WAIT_MS;
    // Folded, claimed and sent as the worker does; the agent stopped before its alerts were settled.
    const [lead] = fixture.store.deliveries.due(fixture.clock.now, 1);
    fixture.store.deliveries.fold(lead.channel_id, lead.id, 100);
    fixture.store.deliveries.claim(lead.id, fixture.clock.now, fixture.clock.now + 2000);
    fixture.store.deliveries.markSent(lead.id, fixture.clock.now, { responseStatus: 200, responseBody: 'ok', error: null });
    expect(fixture.deliveries().filter((d) => d.status === 'pending')).toHaveLength(7);

    fixture.clock.now += 1000;
    fixture.worker.start();
    await fixture.worker.runDue();
    expect(fixture.deliveries().map((d) => [d.status, d.sent_at])).toEqual(Array(8).fill(['sent', fixture.clock.now - 1000]));
    expect(hook.requests).toHaveLength(0);
  });

  it("a webhook's digest made of its alerts' JSON made beforehand is the same bytes as the whole stringified at once", async () => {
    fixture = deliveryFixture();
    for (const name of ['nightly "backup"', 'café ☕ \\ sync', 'line\nbreak']) {
      fixture.monitor({ name, schedule: '* * * * *', duration: 1, now: fixture.clock.now - 10 * 60_000 });
    }
    await fixture.step(fixture.clock.now);
    const entries = fixture.notifications().map((row) => ({ alert: row.alert!, notification: { id: row.id, type: row.type, data: row.data } }));
    expect(entries).toHaveLength(3);
    const url = 'http://cronbeat.test:8787';
    const alertsJson = entries.map((entry) => JSON.stringify(digestWebhookAlert(entry, url)));
    expect(webhookDigestJson(entries, url, fixture.clock.now, alertsJson)).toBe(JSON.stringify(webhookDigest(entries, url, fixture.clock.now)));
  });
});
