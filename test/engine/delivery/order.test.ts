import { afterEach, describe, expect, it } from 'vitest';
import { Receiver, type Answer } from '../../helpers/receiver';
import { deliveryFixture } from './deliveryFixture';

/*
 * A channel receives in order: a new alert never overtakes one the channel is still retrying, or a
 * recovery delivered before its failure leaves "failed" as the channel's last word while the
 * monitor is up. The older is tried again first (once), and the new one goes after it whatever
 * that attempt says, so an alert the receiver keeps refusing never holds the others back.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
  await fixture?.close();
});

const events = (r: Receiver) => r.requests.map((q) => q.headers['x-cronbeat-event']);

/** A webhook receiver that refuses failures (500) `failedRefusals` times, and takes everything else. */
function refusingFailures(failedRefusals: number): Answer {
  let refused = 0;
  return (request, res) => {
    if (request.headers['x-cronbeat-event'] === 'monitor.failed' && refused < failedRefusals) {
      refused++;
      res.writeHead(500).end('busy');
    } else res.writeHead(200).end('ok');
  };
}

describe('a channel receives in order', () => {
  it('a recovery written while its failure backs off is sent after the failure, not before', async () => {
    const r = await new Receiver([refusingFailures(1)]).start();
    receivers.push(r);
    fixture = deliveryFixture();
    fixture.channel('webhook', { url: `${r.url}/hook` });
    const monitor = await fixture.failMonitor('backup');
    await fixture.worker.runDue();
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'pending', attempts: 1 });

    // Ten seconds later the job succeeds, twenty before the failure's retry is due.
    fixture.clock.now += 10_000;
    await fixture.pulse(monitor.token, fixture.clock.now);
    await fixture.worker.runDue();
    await fixture.worker.runDue();
    expect(events(r)).toEqual(['monitor.failed', 'monitor.failed', 'monitor.recovered']);
    expect(fixture.deliveries().map((d) => d.status)).toEqual(['sent', 'sent']);

    // Nothing is sent twice afterwards.
    fixture.clock.now += 60_000;
    await fixture.worker.runDue();
    expect(r.requests).toHaveLength(3);
  });

  it('an older alert the receiver keeps refusing is tried once more, then the new one goes', async () => {
    const r = await new Receiver([refusingFailures(100)]).start();
    receivers.push(r);
    fixture = deliveryFixture();
    fixture.channel('webhook', { url: `${r.url}/hook` });
    const monitor = await fixture.failMonitor('backup');
    await fixture.worker.runDue();
    fixture.clock.now += 10_000;
    await fixture.pulse(monitor.token, fixture.clock.now);
    await fixture.worker.runDue();
    await fixture.worker.runDue();
    expect(events(r)).toEqual(['monitor.failed', 'monitor.failed', 'monitor.recovered']);
    const [failure, recovery] = fixture.deliveries();
    expect(failure).toMatchObject({ status: 'pending', attempts: 2, next_attempt_at: fixture.clock.now + 60_000 });
    expect(recovery).toMatchObject({ status: 'sent', attempts: 1 });
  });

  /** Monitors a, b and c failed, each failure tried once at a receiver that refuses the first `refusals` failures. */
  async function threeFailuresTried(refusals: number) {
    const r = await new Receiver([refusingFailures(refusals)]).start();
    receivers.push(r);
    fixture = deliveryFixture();
    fixture.channel('webhook', { url: `${r.url}/hook` });
    const monitors = [];
    for (const name of ['a', 'b', 'c']) monitors.push(await fixture.failMonitor(name));
    for (let i = 0; i < 3; i++) await fixture.worker.runDue();
    return { r, monitors };
  }

  it('while the receiver keeps refusing, a new alert waits for one older attempt, not one per alert behind it', async () => {
    const { r, monitors } = await threeFailuresTried(100);
    expect(r.requests).toHaveLength(3);
    fixture.clock.now += 10_000;
    await fixture.pulse(monitors[0].token, fixture.clock.now);
    for (let i = 0; i < 4; i++) await fixture.worker.runDue();
    // Past the burst's group wait (three messages went this minute), before the others' retries.
    fixture.clock.now += 6_000;
    for (let i = 0; i < 2; i++) await fixture.worker.runDue();
    expect(events(r)).toEqual(['monitor.failed', 'monitor.failed', 'monitor.failed', 'monitor.failed', 'monitor.recovered']);
  });

  it('while the receiver takes them again, every older alert still waiting goes before the new one, in order', async () => {
    const { r, monitors } = await threeFailuresTried(3);
    fixture.clock.now += 10_000;
    await fixture.pulse(monitors[2].token, fixture.clock.now);
    for (let i = 0; i < 5; i++) await fixture.worker.runDue();
    fixture.clock.now += 20_000;
    for (let i = 0; i < 2; i++) await fixture.worker.runDue();
    const names = r.requests.map((q) => `${JSON.parse(q.body).monitor.name} ${q.headers['x-cronbeat-event']}`);
    expect(names.slice(3)).toEqual(['a monitor.failed', 'b monitor.failed', 'c monitor.failed', 'c monitor.recovered']);
    expect(fixture.deliveries().map((d) => d.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
  });

  it('after the receiver was down for a while, the alerts it refused go in the order they were written once it is back', async () => {
    let up = false;
    const r = await new Receiver([(request, res) => void res.writeHead(up ? 200 : 503).end(up ? 'ok' : 'down')]).start();
    receivers.push(r);
    fixture = deliveryFixture();
    fixture.channel('webhook', { url: `${r.url}/hook` });
    const start = fixture.clock.now;
    const at = async (seconds: number) => {
      fixture.clock.now = start + seconds * 1000;
      await fixture.worker.runDue();
      await fixture.worker.runDue();
    };
    const monitor = await fixture.failMonitor('backup');
    await at(0); // the failure, refused: again in 30 s, then 1 min, 2 min, 5 min…
    await at(30);
    await at(90);
    // The job succeeds: the failure is tried again first, both refused; each backs off on its own,
    // the recovery's wait (30 s, then 1 min) ending well before the failure's (now 5 min and more).
    fixture.clock.now = start + 100_000;
    await fixture.pulse(monitor.token, fixture.clock.now);
    await at(100);
    await at(130);
    const [failure, recovery] = fixture.deliveries();
    expect([failure.status, recovery.status, recovery.next_attempt_at! - start]).toEqual(['pending', 'pending', 190_000]);
    expect(failure.next_attempt_at!).toBeGreaterThan(recovery.next_attempt_at!);
    // The receiver is back; the recovery's retry comes due first: the failure still goes before it.
    up = true;
    await at(190);
    const taken = r.requests.filter((_, i) => i >= r.requests.length - 2).map((q) => q.headers['x-cronbeat-event']);
    expect(taken).toEqual(['monitor.failed', 'monitor.recovered']);
    expect(fixture.deliveries().map((d) => d.status)).toEqual(['sent', 'sent']);
  });

});
