import { afterEach, describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver';
import { DIGEST_INTERVAL_MS, GROUP_WAIT_MS } from '../../../agent/domain/alerts/digest';
import { deliveryFixture } from './deliveryFixture';

/*
 * A webhook's digest carries every alert as data, megabytes for a large burst, and many receivers
 * refuse a body past a limit of theirs (nginx's default 1 MB, Express's 100 KB) with 413. Retried
 * as it is, it would be refused for 24 hours and every alert of the burst lost: instead the digest
 * keeps the older half of its alerts and is sent again at once; the other half makes the next digest.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
  await fixture?.close();
});

const LIMIT = 40_000;

describe('a digest too large for its receiver (413)', () => {
  it('is halved until it fits, and every alert of the burst arrives once', async () => {
    const hook = await new Receiver([
      (request, res) => {
        if (Buffer.byteLength(request.body) > LIMIT) res.writeHead(413).end('Payload Too Large');
        else res.writeHead(200).end('ok');
      },
    ]).start();
    receivers.push(hook);
    fixture = deliveryFixture();
    fixture.channel('webhook', { url: `${hook.url}/in` });
    const monitors = Array.from({ length: 120 }, (_, i) =>
      fixture.monitor({ name: `m${i}`, schedule: '* * * * *', duration: 1, now: fixture.clock.now - 10 * 60_000 }),
    );
    await fixture.step(fixture.clock.now);
    fixture.clock.now += GROUP_WAIT_MS;
    for (let round = 0; round < 12; round++) {
      for (let pass = 0; pass < 4; pass++) await fixture.worker.runDue();
      fixture.clock.now += DIGEST_INTERVAL_MS;
    }
    expect(hook.requests.filter((q) => Buffer.byteLength(q.body) > LIMIT).length).toBeGreaterThan(0);
    const accepted = hook.requests.filter((q) => Buffer.byteLength(q.body) <= LIMIT).map((q) => JSON.parse(q.body) as { alerts: Array<{ monitor: { id: number } }> });
    const ids = accepted.flatMap((d) => d.alerts.map((a) => a.monitor.id)).sort((a, b) => a - b);
    expect(ids).toEqual(monitors.map((m) => m.id));
    expect(new Set(fixture.deliveries().map((d) => d.status))).toEqual(new Set(['sent']));
    const refused = fixture.store.db.prepare("SELECT count(*) FROM deliveries WHERE status != 'sent'").pluck().get();
    expect(refused).toBe(0);
  });
});
