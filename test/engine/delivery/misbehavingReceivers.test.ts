import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { receiverPool } from '../../helpers/receiver';
import { deliveryFixture } from './deliveryFixture';

// Receivers and settings that misbehave: each must end in a retry schedule or a clear failed
// delivery, never a send that throws (a delivery stuck in "sending") or one repeated in a loop.

let fixture: ReturnType<typeof deliveryFixture> | undefined;
const receivers = receiverPool();
afterEach(async () => {
  await receivers.stopAll();
  await fixture?.close();
  fixture = undefined;
});

const SECRET = 'a-webhook-secret-of-some-length';

describe('a webhook URL whose password has a bare %', () => {
  it('is sent with the % as written, the password redacted from what is stored', async () => {
    fixture = deliveryFixture();
    const hook = await receiver({ status: 500, body: 'echo: 50%off-and-more' });
    fixture.channel('webhook', { url: `http://cron:50%off-and-more@127.0.0.1:${hook.port}/in`, secret: SECRET });
    await fixture.failMonitor();
    await fixture.worker.runDue();

    expect(hook.requests).toHaveLength(1);
    expect(hook.requests[0].headers.authorization).toBe(`Basic ${Buffer.from('cron:50%off-and-more').toString('base64')}`);
    const [delivery] = fixture.deliveries();
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
    expect(delivery.last_error).toBe('The receiver answered HTTP 500: echo: [redacted]');
  });

  it('a test send answers what the receiver said', async () => {
    fixture = deliveryFixture();
    const hook = await receiver({ status: 200, body: 'ok' });
    const channel = fixture.channel('webhook', { url: `http://cron:100%@127.0.0.1:${hook.port}/in`, secret: SECRET });
    const result = await fixture.worker.sendTest(channel);
    expect(result).toMatchObject({ ok: true, responseStatus: 200 });
    expect(hook.requests[0].headers.authorization).toBe(`Basic ${Buffer.from('cron:100%').toString('base64')}`);
  });
});

describe('a secret stored with a lone surrogate (an agent before names were checked for it)', () => {
  it('is sent and its answer stored, never a send that throws and stays "sending"', async () => {
    fixture = deliveryFixture();
    const hook = await receiver({ status: 500, body: 'no' }, { status: 200, body: 'ok' });
    const channel = fixture.channel('webhook', { url: hook.url, secret: `${SECRET}\ud800` });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: 'The receiver answered HTTP 500: no' });
    expect(await fixture.worker.sendTest(channel)).toMatchObject({ ok: true, responseStatus: 200, responseBody: 'ok' });
  });
});

describe('a Bot API server that keeps saying the chat moved', () => {
  const moved = (to: number) => ({
    status: 400,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ok: false, error_code: 400, description: 'Bad Request: group chat was upgraded to a supergroup chat', parameters: { migrate_to_chat_id: to } }),
  });

  it.each([
    ['to the chat it was just sent to', [moved(-1001), moved(-1001)]],
    ['back and forth between two chats', [moved(-1001), moved(-2002), moved(-1001), moved(-2002)]],
  ])('%s: one move is followed at once, then the usual backoff (never a loop of sends)', async (_name, answers) => {
    fixture = deliveryFixture();
    const telegram = await receiver(...answers);
    fixture.channel('telegram', { bot_token: '123456:ABC-def_ghi', chat_id: '-2002', api_url: telegram.url });
    await fixture.failMonitor();
    for (let pass = 0; pass < 4; pass++) await fixture.worker.runDue();

    expect(telegram.requests).toHaveLength(2);
    const [delivery] = fixture.deliveries();
    expect(delivery).toMatchObject({ status: 'pending', attempts: 2, next_attempt_at: fixture.clock.now + 60_000 });
  });
});

describe('a receiver that answers 101 Switching Protocols to a POST', () => {
  it('is a failed attempt at once, named by its status, not a wait for the send timeout', async () => {
    const server: Server = createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      fixture = deliveryFixture(undefined, { timeoutMs: 20_000 });
      fixture.channel('webhook', { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`, secret: SECRET });
      await fixture.failMonitor();
      const started = performance.now();
      await fixture.worker.runDue();
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(fixture.deliveries()[0]).toMatchObject({ status: 'pending', attempts: 1, last_error: 'The receiver answered HTTP 101.' });
    } finally {
      server.close();
    }
  });
});

function receiver(...answers: Parameters<typeof receivers.start>) {
  return receivers.start(...answers);
}
