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

function receiver(...answers: Parameters<typeof receivers.start>) {
  return receivers.start(...answers);
}
