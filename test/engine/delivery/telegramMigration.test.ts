import { afterEach, describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver';
import { deliveryFixture } from './deliveryFixture';

/*
 * A Telegram group that becomes a supergroup gets a new chat id; the Bot API then refuses the old
 * one for ever (400 "group chat was upgraded to a supergroup chat") and names the new one in
 * `parameters.migrate_to_chat_id`. The channel follows it at once, as healthchecks.io does, instead
 * of retrying the dead id for 24 hours and losing every alert.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.stop()));
  await fixture?.close();
});

const OLD = '-200300';
const NEW = -1001234567890;

describe('a Telegram group that became a supergroup', () => {
  it('the channel takes the new chat id the Bot API names and the alert is sent there at once', async () => {
    const telegram = await new Receiver([
      (request, res) => {
        const { chat_id } = JSON.parse(request.body) as { chat_id: string };
        if (chat_id === OLD) {
          res.writeHead(400, { 'Content-Type': 'application/json' }).end(
            JSON.stringify({ ok: false, error_code: 400, description: 'Bad Request: group chat was upgraded to a supergroup chat', parameters: { migrate_to_chat_id: NEW } }),
          );
        } else res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ok: true, result: { message_id: 7 } }));
      },
    ]).start();
    receivers.push(telegram);
    fixture = deliveryFixture();
    const channel = fixture.channel('telegram', { bot_token: '123456:ABC-def_ghi', chat_id: OLD, api_url: telegram.url });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    await fixture.worker.runDue();

    expect(telegram.requests.map((q) => JSON.parse(q.body).chat_id)).toEqual([OLD, String(NEW)]);
    expect(telegram.requests.every((q) => q.url === '/bot123456:ABC-def_ghi/sendMessage')).toBe(true);
    const [delivery] = fixture.deliveries();
    expect(delivery).toMatchObject({ status: 'sent', attempts: 2 });
    expect(fixture.store.channels.findAny(channel.id)?.settings).toEqual({ bot_token: '123456:ABC-def_ghi', chat_id: String(NEW), api_url: telegram.url });
  });

  it('says so on the attempt that found it', async () => {
    const telegram = await new Receiver([
      { status: 400, body: JSON.stringify({ ok: false, error_code: 400, description: 'Bad Request: group chat was upgraded to a supergroup chat', parameters: { migrate_to_chat_id: NEW } }) },
      'hang',
    ]).start();
    receivers.push(telegram);
    fixture = deliveryFixture(undefined, { timeoutMs: 5_000 });
    fixture.channel('telegram', { bot_token: '123456:ABC-def_ghi', chat_id: OLD, api_url: telegram.url });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    const [delivery] = fixture.deliveries();
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: fixture.clock.now });
    expect(delivery.last_error).toBe(
      `The receiver answered HTTP 400: ${JSON.stringify({ ok: false, error_code: 400, description: 'Bad Request: group chat was upgraded to a supergroup chat', parameters: { migrate_to_chat_id: NEW } })}. The channel was changed: the chat moved to chat id ${NEW} (a group that became a supergroup); sending again.`,
    );
  });
});
