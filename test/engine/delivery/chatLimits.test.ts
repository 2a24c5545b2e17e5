import { afterEach, describe, expect, it } from 'vitest';
import { Receiver, type Answer } from '../../helpers/receiver';
import { startSmtpReceiver } from '../../helpers/smtpReceiver';
import { discordLike, discordRefusal, parseTelegramHtml, slackLike, slackRefusal, telegramLike } from '../../helpers/chatServices';
import { GROUP_WAIT_MS } from '../../../agent/domain/alerts/digest';
import { deliveryFixture } from './deliveryFixture';

/*
 * A digest of 250 monitors on 250 servers was refused whole by Slack (a section of 4,714
 * characters) and Telegram (4,668), on every retry: those channels never heard of the outage.
 * Every message of every kind now stays within its service's limits, with "… and N more" and the
 * link to the full list; tried with 1, 25, 250 and 5,000 failures, names as long as they may be
 * and as hostile as they come, against stand-ins that refuse what the services refuse.
 */

let fixture: ReturnType<typeof deliveryFixture> | undefined;
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
  await fixture?.close();
  fixture = undefined;
});

async function start(answer: Answer) {
  const receiver = await new Receiver([answer]).start();
  stops.push(() => receiver.stop());
  return receiver;
}

/** A name of 255 characters that escapes to as much as it can: entities, markdown, astral characters. */
const longName = (i: number) => `${i}-<!channel>&[x](https://evil.example)*_~\`|@everyone-𝔘𝔫𝔦𝔠𝔬𝔡𝔢-`.repeat(8).slice(0, 250) + `-${i}`;
const longServer = (i: number) => `srv-${i}-${'&<>*_𝔰'.repeat(30)}`;
const OUTPUT = Array.from({ length: 40 }, (_, i) => `line ${i} & <b> \`\`\` 𝔬𝔲𝔱𝔭𝔲𝔱 ${'&'.repeat(200)}`).join('\n');
const LINK = 'http://cronbeat.test:8787/#/monitors?status=failed';

const isBroken = (text: string) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

describe.each([1, 25, 250, 5000])('%i failures at once', (count) => {
  it("every kind's message is within its service's limits and accepted; a cut list says how many more and links to them all", async () => {
    fixture = deliveryFixture();
    const slack = await start(slackLike);
    const discord = await start(discordLike);
    const telegram = await start(telegramLike);
    const ntfy = await start({ status: 200, body: '{}' });
    const smtp = await startSmtpReceiver();
    stops.push(smtp.stop);
    fixture.channel('slack', { webhook_url: `${slack.url}/services/T/B/X` });
    fixture.channel('discord', { webhook_url: `${discord.url}/api/webhooks/1/abc` });
    fixture.channel('telegram', { bot_token: '1:A', chat_id: '42', api_url: telegram.url });
    fixture.channel('ntfy', { server_url: ntfy.url, topic: 'ops' });
    fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'none', from: 'cb@example.com', to: 'ops@example.com' });

    const now = fixture.clock.now;
    const tag = fixture.store.db.prepare('UPDATE monitors SET tags = ? WHERE id = ?');
    const monitors = fixture.store.db.transaction(() =>
      Array.from({ length: count }, (_, i) => {
        const monitor = fixture!.monitor({ name: longName(i), schedule: '* * * * *', duration: 1, now: now - 10 * 60_000 });
        tag.run(`server:${longServer(i)}`, monitor.id);
        return monitor;
      }),
    )();
    if (count === 1) await fixture.pulse(monitors[0].token, now, { kind: 'fail', exitCode: 3, body: OUTPUT });
    else await fixture.step(now);
    await fixture.worker.runDue();
    fixture.clock.now += GROUP_WAIT_MS;
    for (let i = 0; i < 20 && fixture.deliveries().some((d) => d.status !== 'sent'); i++) await fixture.worker.runDue();

    // Every service took its one message (they refuse, as the real ones do, what is past their limits).
    expect(fixture.deliveries().filter((d) => d.status !== 'sent').map((d) => d.last_error)).toEqual([]);
    for (const receiver of [slack, discord, telegram, ntfy]) expect(receiver.requests).toHaveLength(1);
    expect(smtp.mails).toHaveLength(1);

    const slackBody = JSON.parse(slack.requests[0].body);
    expect(slackRefusal(slackBody)).toBeNull();
    expect(slackBody.text.length).toBeLessThanOrEqual(4000);
    const discordBody = JSON.parse(discord.requests[0].body);
    expect(discordRefusal(discordBody)).toBeNull();
    const telegramText = parseTelegramHtml(JSON.parse(telegram.requests[0].body).text);
    if ('error' in telegramText) throw new Error(telegramText.error);
    expect(telegramText.text.length).toBeLessThanOrEqual(4096);
    const ntfyBody = JSON.parse(ntfy.requests[0].body);
    expect(Buffer.byteLength(ntfyBody.message)).toBeLessThanOrEqual(4096);
    expect(ntfyBody.title.length).toBeLessThanOrEqual(250);
    const headers = smtp.mails[0].raw.slice(0, smtp.mails[0].raw.indexOf('\r\n\r\n'));
    for (const line of headers.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(998);
    const subject = headers.match(/^Subject:.*(?:\r\n[ \t].*)*/m)![0];
    expect(subject.replace(/\r\n[ \t]/g, ' ').length).toBeLessThanOrEqual(998);

    // Nothing cut between the halves of a surrogate pair, or inside an escape (every & of Slack's starts a whole entity).
    for (const text of [slackBody.text, ...slackBody.blocks.map((b: { text?: { text: string } }) => b.text?.text ?? ''), discordBody.embeds[0].title, discordBody.embeds[0].description, telegramText.text, ntfyBody.message, ntfyBody.title]) {
      expect(isBroken(text)).toBe(false);
    }
    for (const block of slackBody.blocks) if (block.text) expect(block.text.text).not.toMatch(/&(?!amp;|lt;|gt;)/);

    if (count >= 250) {
      // The lists stop for room and say how many are left out, with the link to them all.
      expect(slackBody.blocks[0].text.text).toMatch(new RegExp(`… and \\d+ more: <${LINK.replace(/[?.]/g, '\\$&')}\\|the full list>$`));
      expect(discordBody.embeds[0].description).toMatch(/… and \d+ more: http:\/\/cronbeat\.test:8787\/#\/monitors\?status=failed$/);
      expect(telegramText.text).toMatch(/… and \d+ more:\nOpen in Cronbeat$/);
      expect(ntfyBody.message).toMatch(/… and \d+ more\nOpen: http:\/\/cronbeat\.test:8787\/#\/monitors\?status=failed$/);
      const more = Number(/… and (\d+) more/.exec(telegramText.text)![1]);
      const shownLines = telegramText.text.split('\n').slice(1, -2);
      expect(more + shownLines.length).toBe(count);
    }
  }, 120_000);
});
