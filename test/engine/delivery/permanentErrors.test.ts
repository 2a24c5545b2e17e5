import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelKind } from '../../../agent/contract/channels';
import { closedPort } from '../../helpers/cli';
import { Receiver, type Answer } from '../../helpers/receiver';
import { startSmtpReceiver } from '../../helpers/smtpReceiver';
import { deliveryFixture } from './deliveryFixture';

/*
 * Each kind tells a refusal that will hold until the channel's settings change (a revoked token, a
 * deleted webhook, a blocked bot) from one worth retrying: the first fails the delivery after one
 * attempt, in words that say so, instead of 24 hours of retries; the second is retried as before.
 * The receivers are real local servers answering as each service does.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((stop) => stop()));
  await fixture?.close();
});

const HOUR = 3_600_000;
const NOT_RETRIED = ": this will not work until the channel's settings change; not retried.";
const json = (status: number, body: unknown): Answer => ({ status, body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
const text = (status: number, body: string): Answer => ({ status, body });

/** Each kind's settings pointing at `url` (the receiver standing in for the service). */
const SETTINGS: Record<Exclude<ChannelKind, 'email'>, (url: string) => Record<string, unknown>> = {
  webhook: (url) => ({ url: `${url}/hook` }),
  ntfy: (url) => ({ server_url: url, topic: 'ops', access_token: 'tk_0123456789' }),
  slack: (url) => ({ webhook_url: `${url}/services/T000/B000/XXXXXXXXXXXXXXXXXXXX` }),
  discord: (url) => ({ webhook_url: `${url}/api/webhooks/1/abcdefghijklmnopqrstuvwxyz` }),
  telegram: (url) => ({ bot_token: '123456:ABC-def_ghi', chat_id: '-100200300', api_url: url }),
};

/** A failed monitor's alert sent once through a channel of `kind` at a receiver answering `answer`; then two hours later, the worker again. */
async function sendThrough(kind: Exclude<ChannelKind, 'email'>, answer: Answer, options: { timeoutMs?: number } = {}) {
  const receiver = await new Receiver([answer]).start();
  cleanups.push(() => receiver.stop());
  fixture = deliveryFixture(undefined, options);
  fixture.channel(kind, SETTINGS[kind](receiver.url));
  await fixture.failMonitor();
  await fixture.worker.runDue();
  const first = fixture.deliveries()[0];
  fixture.clock.now += 2 * HOUR;
  await fixture.worker.runDue();
  return { first, receiver };
}

const PERMANENT: Array<[Exclude<ChannelKind, 'email'>, string, Answer, string]> = [
  ['slack', 'a revoked token', text(403, 'invalid_token'), 'Slack says invalid_token'],
  ['slack', 'a deleted channel', text(404, 'channel_not_found'), 'Slack says channel_not_found'],
  ['slack', 'a removed app', text(404, 'no_service'), 'Slack says no_service'],
  ['slack', 'an archived channel', text(410, 'channel_is_archived'), 'Slack says channel_is_archived'],
  ['webhook', 'a URL not found', text(404, 'Not Found'), 'The receiver answered HTTP 404 (not found): Not Found'],
  ['webhook', 'a URL gone', text(410, ''), 'The receiver answered HTTP 410 (gone)'],
  ['discord', 'a deleted webhook', json(404, { message: 'Unknown Webhook', code: 10015 }), 'Discord says Unknown Webhook (HTTP 404)'],
  ['discord', 'a wrong webhook token', json(401, { message: 'Invalid Webhook Token', code: 50027 }), 'Discord says Invalid Webhook Token (HTTP 401)'],
  ['telegram', 'a chat it cannot find', json(400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' }), 'Telegram says Bad Request: chat not found'],
  ['telegram', 'a blocked bot', json(403, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' }), 'Telegram says Forbidden: bot was blocked by the user'],
  ['telegram', 'a revoked token', json(401, { ok: false, error_code: 401, description: 'Unauthorized' }), 'Telegram says Unauthorized'],
  ['ntfy', 'a refused token', json(401, { code: 40101, http: 401, error: 'unauthorized' }), 'ntfy says unauthorized (HTTP 401)'],
  ['ntfy', 'a topic it may not write', json(403, { code: 40301, http: 403, error: 'forbidden' }), 'ntfy says forbidden (HTTP 403)'],
  ['ntfy', 'no ntfy at that address', text(404, 'page not found'), 'ntfy says HTTP 404 (HTTP 404)'],
];

const TRANSIENT: Array<[Exclude<ChannelKind, 'email'>, string, Answer]> = [
  ['slack', 'a server error', text(500, 'rollup_error')],
  ['slack', 'a message refused for its content', text(400, 'invalid_blocks')],
  ['webhook', 'a server error', text(503, 'Service Unavailable')],
  ['webhook', 'a rate limit', text(429, 'slow down')],
  ['discord', 'a rate limit', json(429, { message: 'You are being rate limited.', retry_after: 1.5, global: false })],
  ['telegram', 'a rate limit', json(429, { ok: false, error_code: 429, description: 'Too Many Requests: retry after 5', parameters: { retry_after: 5 } })],
  ['telegram', 'a message it cannot parse', json(400, { ok: false, error_code: 400, description: "Bad Request: can't parse entities" })],
  ['ntfy', 'a server error', json(500, { code: 50001, http: 500, error: 'internal server error' })],
  ['webhook', 'no answer in time', 'hang'],
];

describe('permanent refusals', () => {
  for (const [kind, what, answer, said] of PERMANENT) {
    it(`${kind}: ${what} fails at once, once, saying so`, async () => {
      const { first, receiver } = await sendThrough(kind, answer);
      expect(first).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null, last_error: `${said}${NOT_RETRIED}` });
      expect(receiver.requests).toHaveLength(1);
      expect(fixture.deliveries()[0].status).toBe('failed');
    });
  }

  it('email: a refused login fails at once, once, saying so, without the password', async () => {
    const smtp = await startSmtpReceiver({ login: { user: 'bot', pass: 'right' } });
    cleanups.push(smtp.stop);
    fixture = deliveryFixture();
    fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'none', user: 'bot', password: 'wrong-password', from: 'a@example.com', to: 'b@example.com' });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    const [delivery] = fixture.deliveries();
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null });
    expect(delivery.last_error).toBe(`The mail server refused the login: 535 Invalid username or password${NOT_RETRIED}`);
  });

  it('email: a refused recipient (550) fails at once; one the server cannot take now (451) is retried', async () => {
    const refusing = await startSmtpReceiver({ refuseRecipients: { code: 550, message: '5.1.1 No such user' } });
    const busy = await startSmtpReceiver({ refuseRecipients: { code: 451, message: '4.3.0 Try again later' } });
    cleanups.push(refusing.stop, busy.stop);
    fixture = deliveryFixture();
    const mail = { host: '127.0.0.1', tls: 'none', from: 'a@example.com', to: 'nobody@example.com' };
    fixture.channel('email', { ...mail, port: refusing.port });
    fixture.channel('email', { ...mail, port: busy.port });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    const [refused, later] = fixture.deliveries();
    expect(refused).toMatchObject({ status: 'failed', next_attempt_at: null, last_error: `The mail server refused the recipients: 550 5.1.1 No such user${NOT_RETRIED}` });
    expect(later).toMatchObject({ status: 'pending', next_attempt_at: fixture.clock.now + 30_000 });
    expect(later.last_error).toMatch(/451 4\.3\.0 Try again later/);
    expect(later.last_error).not.toContain('not retried');
  });
});

describe('transient refusals', () => {
  for (const [kind, what, answer] of TRANSIENT) {
    it(`${kind}: ${what} is retried`, async () => {
      const { first, receiver } = await sendThrough(kind, answer, answer === 'hang' ? { timeoutMs: 300 } : {});
      expect(first.status).toBe('pending');
      expect(first.next_attempt_at).not.toBeNull();
      expect(first.last_error).not.toContain('not retried');
      expect(receiver.requests).toHaveLength(2);
    });
  }

  it('webhook: a receiver that cannot be reached is retried', async () => {
    fixture = deliveryFixture();
    fixture.channel('webhook', { url: `http://127.0.0.1:${await closedPort()}/hook` });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'pending', attempts: 1 });
    expect(fixture.deliveries()[0].next_attempt_at).not.toBeNull();
  });
});
