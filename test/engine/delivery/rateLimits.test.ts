import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelKind } from '../../../agent/contract/channels';
import { Receiver, type Answer } from '../../helpers/receiver';
import { deliveryFixture } from './deliveryFixture';

/*
 * A receiver that rate-limits says how long to leave it alone: a Retry-After header (seconds or an
 * HTTP date; Slack, Discord, most servers) or, for Telegram, `parameters.retry_after` in its JSON.
 * The retry waits at least that long (at most an hour, whatever it says), and so does every other
 * delivery of that channel; other channels carry on.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
  await fixture?.close();
});

const SECOND = 1000;
const HOUR = 3_600_000;
const start = async (...answers: Answer[]) => {
  const r = await new Receiver(answers.length ? answers : undefined).start();
  receivers.push(r);
  return r;
};

const SETTINGS: Record<Exclude<ChannelKind, 'email'>, (url: string) => Record<string, unknown>> = {
  webhook: (url) => ({ url: `${url}/hook` }),
  ntfy: (url) => ({ server_url: url, topic: 'ops' }),
  slack: (url) => ({ webhook_url: `${url}/services/T000/B000/XXXXXXXXXXXXXXXXXXXX` }),
  discord: (url) => ({ webhook_url: `${url}/api/webhooks/1/abcdefghijklmnopqrstuvwxyz` }),
  telegram: (url) => ({ bot_token: '123456:ABC-def_ghi', chat_id: '-100200300', api_url: url }),
};

/** The first delivery after one attempt at a receiver answering `answer`, for a channel of `kind`. */
async function firstAttempt(kind: Exclude<ChannelKind, 'email'>, answer: Answer) {
  const r = await start(answer, { status: 200, body: '{"ok":true}' });
  fixture = deliveryFixture();
  fixture.channel(kind, SETTINGS[kind](r.url));
  await fixture.failMonitor();
  await fixture.worker.runDue();
  return { delivery: fixture.deliveries()[0], r };
}

describe('a receiver that asks to be left alone', () => {
  it('webhook: 429 with Retry-After in seconds holds that delivery and the channel\'s next ones that long; other channels carry on', async () => {
    const limited = await start({ status: 429, body: 'slow down', headers: { 'Retry-After': '120' } }, { status: 200, body: 'ok' });
    const other = await start();
    fixture = deliveryFixture();
    fixture.channel('webhook', { url: `${limited.url}/hook` });
    fixture.channel('webhook', { url: `${other.url}/hook` });
    const t0 = fixture.clock.now;
    await fixture.failMonitor('first');
    await fixture.worker.runDue();
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: t0 + 120 * SECOND });

    // Another alert ten seconds later: the other channel gets it at once, the limited one not before 120 s.
    fixture.clock.now = t0 + 10 * SECOND;
    await fixture.failMonitor('second');
    for (const later of [10, 31, 61, 119]) {
      fixture.clock.now = t0 + later * SECOND;
      await fixture.worker.runDue();
    }
    expect(limited.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(2);

    fixture.clock.now = t0 + 120 * SECOND;
    await fixture.worker.runDue();
    await fixture.worker.runDue();
    expect(limited.requests.map((q) => JSON.parse(q.body).monitor.name)).toEqual(['first', 'first', 'second']);
    expect(fixture.deliveries().map((d) => d.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
  });

  it('a channel pointed at another receiver is no longer held by what the old one asked', async () => {
    const limited = await start({ status: 429, headers: { 'Retry-After': '3600' } });
    const fixed = await start();
    fixture = deliveryFixture();
    const channel = fixture.channel('webhook', { url: `${limited.url}/hook`, secret: 'a-webhook-secret-of-some-length' });
    await fixture.failMonitor('first');
    await fixture.worker.runDue();
    fixture.clock.now += 10 * SECOND;
    await fixture.failMonitor('second');
    await fixture.worker.runDue();
    expect(limited.requests).toHaveLength(1);

    // A name alone changes nothing; a new URL lifts the hold: the waiting alerts go to it at once, in order.
    fixture.store.channels.update(1, channel.id, { name: 'renamed', settings: channel.settings, quietHours: null, remindEveryHours: null }, fixture.clock.now);
    await fixture.worker.runDue();
    expect(fixed.requests).toHaveLength(0);
    fixture.store.channels.update(1, channel.id, { name: 'renamed', settings: { ...channel.settings, url: `${fixed.url}/hook` }, quietHours: null, remindEveryHours: null }, fixture.clock.now);
    await fixture.worker.runDue();
    await fixture.worker.runDue();
    expect(fixed.requests.map((q) => JSON.parse(q.body).monitor.name)).toEqual(['first', 'second']);
    expect(limited.requests).toHaveLength(1);
  });

  it('webhook: Retry-After as an HTTP date waits until then', async () => {
    const when = new Date(Date.parse('2026-11-21T10:01:30Z')).toUTCString();
    const { delivery } = await firstAttempt('webhook', { status: 503, body: 'maintenance', headers: { 'Retry-After': when } });
    expect(delivery).toMatchObject({ status: 'pending', next_attempt_at: Date.parse('2026-11-21T10:01:30Z') });
  });

  it('webhook: an absurd Retry-After waits an hour at most; one that is not a delay is the usual backoff', async () => {
    const { delivery } = await firstAttempt('webhook', { status: 429, headers: { 'Retry-After': '315360000' } });
    expect(delivery.next_attempt_at).toBe(fixture.clock.now + HOUR);
    await fixture.close();
    const again = await firstAttempt('webhook', { status: 429, headers: { 'Retry-After': 'soon' } });
    expect(again.delivery.next_attempt_at).toBe(fixture.clock.now + 30 * SECOND);
  });

  it('slack: 429 ratelimited with Retry-After', async () => {
    const { delivery } = await firstAttempt('slack', { status: 429, body: 'ratelimited', headers: { 'Retry-After': '75' } });
    expect(delivery).toMatchObject({ status: 'pending', next_attempt_at: fixture.clock.now + 75 * SECOND });
    expect(delivery.last_error).toContain('ratelimited');
  });

  it('discord: 429 with Retry-After', async () => {
    const body = JSON.stringify({ message: 'You are being rate limited.', retry_after: 64.57, global: false });
    const { delivery } = await firstAttempt('discord', { status: 429, body, headers: { 'Retry-After': '65', 'Content-Type': 'application/json' } });
    expect(delivery.next_attempt_at).toBe(fixture.clock.now + 65 * SECOND);
  });

  it('telegram: 429 with parameters.retry_after in its JSON', async () => {
    const body = JSON.stringify({ ok: false, error_code: 429, description: 'Too Many Requests: retry after 45', parameters: { retry_after: 45 } });
    const { delivery } = await firstAttempt('telegram', { status: 429, body, headers: { 'Content-Type': 'application/json' } });
    expect(delivery).toMatchObject({ status: 'pending', next_attempt_at: fixture.clock.now + 45 * SECOND });
    expect(delivery.last_error).toContain('Too Many Requests: retry after 45');
  });
});
