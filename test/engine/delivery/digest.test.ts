import { afterEach, describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver';
import { burstDecision, BURST_RECHECK_MS, BURST_THRESHOLD, DIGEST_INTERVAL_MS, GROUP_WAIT_MS } from '../../../agent/domain/alerts/digest';
import { deliveryFixture } from './deliveryFixture';

/*
 * 1,000 monitors failing together sent 1,000 messages to every channel. Past a
 * few messages a minute, a channel gets one digest naming every monitor (a webhook: all of them
 * as data), no alert waits more than a minute, and the digest goes through the outbox like any
 * alert. The clock is the fixture's: nothing sleeps.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
  await fixture?.close();
});

async function receiver(...answers: Array<{ status: number; body?: string }>) {
  const r = await new Receiver(answers.length ? answers : undefined).start();
  stops.push(() => r.stop());
  return r;
}

/** `count` monitors that all fail in one step of the scheduler, named m1…m<count>. */
async function failMany(count: number) {
  const monitors = Array.from({ length: count }, (_, i) =>
    fixture.monitor({ name: `m${i + 1}`, schedule: '* * * * *', duration: 1, now: fixture.clock.now - 10 * 60_000 }),
  );
  await fixture.step(fixture.clock.now);
  return monitors;
}

describe('the burst rule', () => {
  const now = 1_000_000;
  it('sends up to the threshold one by one, then holds for the group wait and the digest interval', () => {
    expect(burstDecision({ recentSends: 0, lastDigestAt: null, waiting: BURST_THRESHOLD, oldestWaitingAt: now }, now)).toEqual({ action: 'send' });
    expect(burstDecision({ recentSends: 2, lastDigestAt: null, waiting: 1, oldestWaitingAt: now }, now)).toEqual({ action: 'send' });
    expect(burstDecision({ recentSends: 0, lastDigestAt: null, waiting: 30, oldestWaitingAt: now }, now)).toEqual({ action: 'hold', until: now + GROUP_WAIT_MS });
    expect(burstDecision({ recentSends: 0, lastDigestAt: null, waiting: 30, oldestWaitingAt: now }, now + GROUP_WAIT_MS)).toEqual({ action: 'fold' });
    const lastDigestAt = now - 1000;
    expect(burstDecision({ recentSends: 4, lastDigestAt, waiting: 2, oldestWaitingAt: now }, now)).toEqual({ action: 'hold', until: lastDigestAt + DIGEST_INTERVAL_MS });
  });

  it('waits for a burst still being failed, looking again every few hundred ms, but no longer than the digest interval', () => {
    const burst = { recentSends: 0, lastDigestAt: null, waiting: 30, oldestWaitingAt: now };
    expect(burstDecision(burst, now, true)).toEqual({ action: 'hold', until: now + GROUP_WAIT_MS });
    expect(burstDecision(burst, now + GROUP_WAIT_MS, true)).toEqual({ action: 'wait', until: now + GROUP_WAIT_MS + BURST_RECHECK_MS });
    expect(burstDecision(burst, now + DIGEST_INTERVAL_MS - 100, true)).toEqual({ action: 'wait', until: now + DIGEST_INTERVAL_MS });
    expect(burstDecision(burst, now + DIGEST_INTERVAL_MS, true)).toEqual({ action: 'fold' });
    expect(burstDecision(burst, now + GROUP_WAIT_MS, false)).toEqual({ action: 'fold' });
    // A few alerts go out one by one whatever else is failing.
    expect(burstDecision({ ...burst, waiting: 1 }, now, true)).toEqual({ action: 'send' });
  });

  it('never holds an alert longer than the digest interval, well under a minute', () => {
    for (const lastDigestAt of [null, now - 19_000, now - 1, now]) {
      const decision = burstDecision({ recentSends: 10, lastDigestAt, waiting: 5, oldestWaitingAt: now }, now);
      const until = decision.action === 'hold' ? decision.until : now;
      expect(until - now).toBeLessThanOrEqual(DIGEST_INTERVAL_MS);
      expect(DIGEST_INTERVAL_MS).toBeLessThan(60_000);
    }
  });
});

describe('digests through the outbox', () => {
  it('30 monitors failing at once: one digest per channel after the group wait; the webhook gets every monitor as data', async () => {
    fixture = deliveryFixture();
    const hook = await receiver();
    const slack = await receiver();
    fixture.channel('webhook', { url: `${hook.url}/in` });
    fixture.channel('slack', { webhook_url: `${slack.url}/services/T/B/X` });
    const monitors = await failMany(30);

    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(0); // held: the rest of the burst may still come
    fixture.clock.now += GROUP_WAIT_MS;
    await fixture.worker.runDue();
    await fixture.worker.runDue();

    expect(hook.requests).toHaveLength(1);
    expect(hook.requests[0].headers['x-cronbeat-event']).toBe('digest');
    const digest = JSON.parse(hook.requests[0].body);
    expect(digest).toMatchObject({ schema: 'cronbeat.digest.v1', event: 'digest', count: 30, counts: { failed: 30, recovered: 0, other: 0 }, title: '30 monitors missed' });
    expect(digest.link).toBe('http://cronbeat.test:8787/#/monitors?status=failed');
    expect(digest.alerts.map((a: { monitor: { id: number } }) => a.monitor.id).sort((a: number, b: number) => a - b)).toEqual(monitors.map((m) => m.id));
    expect(digest.alerts[0]).toMatchObject({ schema: 'cronbeat.alert.v1', event: 'monitor.failed', reason: { kind: 'missed' } });

    expect(slack.requests).toHaveLength(1);
    const text = JSON.parse(slack.requests[0].body).blocks[0].text.text;
    expect(text).toMatch(/^:red_circle: \*<http:\/\/cronbeat\.test:8787\/#\/monitors\?status=failed\|30 monitors missed>\*\nm1 \(missed\), m2 \(missed\), /);
    expect(text).toMatch(/m25 \(missed\), … 5 more$/);

    // Every alert of the burst counts as delivered, by the one message that carried it.
    expect(new Set(fixture.deliveries().map((d) => d.status))).toEqual(new Set(['sent']));
  });

  it('a burst the loop is still failing at the group wait makes one digest once it is failed', async () => {
    fixture = deliveryFixture();
    const hook = await receiver();
    fixture.channel('webhook', { url: `${hook.url}/in` });
    const start = fixture.clock.now;
    const monitors = Array.from({ length: 30 }, (_, i) =>
      fixture.monitor({ name: `m${i + 1}`, schedule: '* * * * *', duration: 1, now: start - 10 * 60_000 }),
    );
    // As when the loop fails a burst a few at a time while pulses come: 20 failed at first, 10 past their
    // deadline but not failed yet when the group wait ends.
    const late = monitors.slice(20).map((m) => m.id);
    fixture.store.db
      .prepare(`UPDATE monitors SET due_at = @due, expected_run_at = @due - 60000, grace_from = NULL WHERE id IN (${late.join(', ')})`)
      .run({ due: start + 1_000 });
    await fixture.step(start);
    await fixture.worker.runDue();
    fixture.clock.now = start + GROUP_WAIT_MS;
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(0);
    fixture.clock.now += BURST_RECHECK_MS;
    await fixture.step(fixture.clock.now);
    await fixture.worker.runDue();
    await fixture.worker.runDue();

    expect(hook.requests).toHaveLength(1);
    const digest = JSON.parse(hook.requests[0].body);
    expect(digest).toMatchObject({ event: 'digest', count: 30 });
    expect(digest.alerts.map((a: { monitor: { id: number } }) => a.monitor.id).sort((a: number, b: number) => a - b)).toEqual(monitors.map((m) => m.id));
  });

  it('a few alerts go out one by one; more within the minute fold into a digest no later than the digest interval', async () => {
    fixture = deliveryFixture();
    const hook = await receiver();
    fixture.channel('webhook', { url: `${hook.url}/in` });
    const start = fixture.clock.now;
    for (let i = 0; i < 3; i++) {
      await failMany(1);
      await fixture.worker.runDue();
      fixture.clock.now += 1000;
    }
    expect(hook.requests.map((r) => JSON.parse(r.body).schema)).toEqual(['cronbeat.alert.v1', 'cronbeat.alert.v1', 'cronbeat.alert.v1']);

    // Seven more, one a second: the first waits GROUP_WAIT_MS for others to join, and the six
    // there by then go as one digest; the seventh waits for the digest interval and, alone, goes as itself.
    for (let i = 0; i < 7; i++) {
      await failMany(1);
      await fixture.worker.runDue();
      fixture.clock.now += 1000;
    }
    expect(hook.requests).toHaveLength(4);
    expect(JSON.parse(hook.requests[3].body)).toMatchObject({ event: 'digest', count: 6 });
    const digestAt = start + 3000 + GROUP_WAIT_MS;
    fixture.clock.now = digestAt + DIGEST_INTERVAL_MS - 1;
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(4);
    fixture.clock.now = digestAt + DIGEST_INTERVAL_MS;
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(5);
    expect(JSON.parse(hook.requests[4].body)).toMatchObject({ schema: 'cronbeat.alert.v1', monitor: { name: 'm1' } });
    expect(fixture.deliveries().map((d) => d.status)).toEqual(Array(10).fill('sent'));
  });

  it('at least once: a digest the receiver refuses is retried as one, and its alerts are sent with it', async () => {
    fixture = deliveryFixture();
    const hook = await receiver({ status: 503, body: 'busy' }, { status: 200, body: 'ok' });
    fixture.channel('webhook', { url: `${hook.url}/in` });
    await failMany(10);
    fixture.clock.now += GROUP_WAIT_MS;
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(1);
    const waiting = fixture.deliveries();
    expect(waiting.filter((d) => d.status === 'pending')).toHaveLength(10);
    expect(waiting.filter((d) => d.last_error !== null)).toHaveLength(1); // the lead's; the others wait on it

    fixture.clock.now = Math.max(...waiting.map((d) => d.next_attempt_at ?? 0));
    await fixture.worker.runDue();
    expect(hook.requests).toHaveLength(2);
    expect(hook.requests[1].body).toBe(hook.requests[0].body);
    expect(hook.requests[1].headers['x-cronbeat-delivery']).toBe(hook.requests[0].headers['x-cronbeat-delivery']);
    expect(fixture.deliveries().map((d) => d.status)).toEqual(Array(10).fill('sent'));
  });

  it('a digest interrupted by a crash is sent again at the next start', async () => {
    fixture = deliveryFixture();
    const hook = await receiver();
    fixture.channel('webhook', { url: `${hook.url}/in` });
    await failMany(8);
    fixture.clock.now += GROUP_WAIT_MS;
    // Fold and claim as the worker does, then "crash" before sending: the lead stays 'sending'.
    const [lead] = fixture.store.deliveries.due(fixture.clock.now, 1);
    fixture.store.deliveries.fold(lead.channel_id, lead.id, 100);
    fixture.store.deliveries.claim(lead.id, fixture.clock.now, fixture.clock.now + 2000);
    fixture.clock.now += 1000;
    fixture.worker.start();
    await hook.received(1);
    await fixture.worker.runDue();
    expect(JSON.parse(hook.requests[0].body)).toMatchObject({ event: 'digest', count: 8 });
    for (let i = 0; i < 100 && fixture.deliveries().some((d) => d.status !== 'sent'); i++) await new Promise((r) => setImmediate(r));
    expect(fixture.deliveries().map((d) => d.status)).toEqual(Array(8).fill('sent'));
  });

  it("long monitor names: a chat digest stays within Slack's 3,000 and Telegram's 4,096 characters (both refuse more)", async () => {
    fixture = deliveryFixture();
    const slack = await receiver();
    const telegram = await receiver();
    fixture.channel('slack', { webhook_url: `${slack.url}/services/T/B/X` });
    fixture.channel('telegram', { bot_token: '123456:ABC', chat_id: '42', api_url: telegram.url });
    Array.from({ length: 30 }, (_, i) =>
      fixture.monitor({ name: `${String(i + 1).padStart(2, '0')}-${'nightly-backup-of-the-customer-database-'.repeat(7)}`.slice(0, 255), schedule: '* * * * *', duration: 1, now: fixture.clock.now - 10 * 60_000 }),
    );
    await fixture.step(fixture.clock.now);
    await fixture.worker.runDue();
    fixture.clock.now += GROUP_WAIT_MS;
    await fixture.worker.runDue();
    await fixture.worker.runDue();
    const section = JSON.parse(slack.requests[0].body).blocks[0].text.text as string;
    expect(section.length).toBeLessThanOrEqual(3000);
    expect(section).toContain('01-nightly-backup');
    expect(section).toMatch(/… \d+ more/);
    const text = JSON.parse(telegram.requests[0].body).text as string;
    expect(text.replace(/<[^>]+>/g, '').length).toBeLessThanOrEqual(4096);
  });
});
