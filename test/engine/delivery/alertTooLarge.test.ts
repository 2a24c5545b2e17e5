import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelKind } from '../../../agent/contract/channels';
import { Receiver } from '../../helpers/receiver';
import { deliveryFixture } from './deliveryFixture';

/*
 * A receiver that refuses one alert for its size (413: a proxy's body limit set very low) will
 * refuse the same body every time: retried, it would be sent for 24 hours and fail at the end
 * all the same. It fails after one attempt, saying why and what to change. (A digest is halved
 * instead: digestTooLarge.test.ts.)
 */

let fixture: ReturnType<typeof deliveryFixture>;
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
  await fixture?.close();
});

const HOUR = 3_600_000;
const SETTINGS: Partial<Record<ChannelKind, (url: string) => Record<string, unknown>>> = {
  webhook: (url) => ({ url: `${url}/hook` }),
  ntfy: (url) => ({ server_url: url, topic: 'ops' }),
};

describe('one alert refused for its size (413)', () => {
  for (const [kind, settings] of Object.entries(SETTINGS)) {
    it(`through ${kind}: fails after one attempt, saying the receiver's limit is the cause, and is never sent again`, async () => {
      const receiver = await new Receiver([{ status: 413, body: 'Payload Too Large' }]).start();
      receivers.push(receiver);
      fixture = deliveryFixture();
      fixture.channel(kind as ChannelKind, settings(receiver.url));
      await fixture.failMonitor();
      await fixture.worker.runDue();
      const [delivery] = fixture.deliveries();
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null });
      expect(delivery.last_error).toBe(
        "The receiver answered HTTP 413: Payload Too Large. Too large for the receiver, and this message cannot be made smaller: not retried. Raise the receiver's limit on a request's size (nginx's client_max_body_size).",
      );
      for (let hour = 0; hour < 25; hour++) {
        fixture.clock.now += HOUR;
        await fixture.worker.runDue();
      }
      expect(receiver.requests).toHaveLength(1);
    });
  }

  it('is not confused with a refusal worth retrying: a 503 is tried again', async () => {
    const receiver = await new Receiver([{ status: 503, body: 'busy' }, { status: 200, body: 'ok' }]).start();
    receivers.push(receiver);
    fixture = deliveryFixture();
    fixture.channel('webhook', { url: `${receiver.url}/hook` });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    fixture.clock.now += HOUR;
    await fixture.worker.runDue();
    expect(fixture.deliveries()[0].status).toBe('sent');
    expect(receiver.requests).toHaveLength(2);
  });
});
