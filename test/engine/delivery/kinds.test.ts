import { afterEach, describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver';
import { startSmtpReceiver } from '../../helpers/smtpReceiver';
import { makeCa, makeLeaf } from '../certificates/tls-fixtures';
import { deliveryFixture } from './deliveryFixture';

/*
 * Each kind of channel against a real receiver on 127.0.0.1, which checks the exact request:
 * ntfy, Slack, Discord and Telegram stand-ins are local HTTP servers; email is a real SMTP server.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const cleanups: Array<() => Promise<void>> = [];
const receiver = async () => {
  const r = await new Receiver().start();
  cleanups.push(() => r.stop());
  return r;
};
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((stop) => stop()));
  await fixture?.close();
});

const MINUTE = 60_000;

/** Fails a monitor, then brings it back: one failure and one recovery, both sent. */
async function failThenRecover() {
  const monitor = await fixture.failMonitor('db backup');
  await fixture.worker.runDue();
  fixture.clock.now += MINUTE;
  await fixture.pulse(monitor.token, fixture.clock.now);
  await fixture.worker.runDue();
  return monitor;
}

describe('channel kinds', () => {
  it('ntfy: JSON publish to the server with topic, title, priority high then default, click link, token', async () => {
    fixture = deliveryFixture();
    const ntfy = await receiver();
    fixture.channel('ntfy', { server_url: ntfy.url, topic: 'ops-alerts', access_token: 'tk_secret_1234' });
    const monitor = await failThenRecover();
    expect(ntfy.requests).toHaveLength(2);
    const [failed, recovered] = ntfy.requests;
    expect(failed.method).toBe('POST');
    expect(failed.url).toBe('/');
    expect(failed.headers.authorization).toBe('Bearer tk_secret_1234');
    expect(JSON.parse(failed.body)).toEqual({
      topic: 'ops-alerts',
      title: 'db backup missed its run',
      message: expect.stringMatching(/^Missed: the run due Sat 21 Nov 09:51 UTC did not come \(grace 1 min\); no run has come yet\.\n[^]*\nOpen: http:\/\/cronbeat.test:8787\/#\/monitors\/\d+$/),
      priority: 4,
      tags: ['rotating_light'],
      click: `http://cronbeat.test:8787/#/monitors/${monitor.id}`,
    });
    expect(JSON.parse(recovered.body)).toMatchObject({ title: 'db backup recovered', priority: 3, tags: ['white_check_mark'] });
    expect(JSON.parse(recovered.body).message).toMatch(/^Recovered after 1 min\./);
  });

  it('slack: an incoming-webhook message with a fallback text and a linked title block', async () => {
    fixture = deliveryFixture();
    const slack = await receiver();
    fixture.channel('slack', { webhook_url: `${slack.url}/services/T000/B000/XXXX` });
    const monitor = await failThenRecover();
    const [failed] = slack.requests;
    expect(failed.method).toBe('POST');
    expect(failed.url).toBe('/services/T000/B000/XXXX');
    expect(failed.headers['content-type']).toBe('application/json');
    const body = JSON.parse(failed.body);
    expect(body.text).toMatch(/^db backup missed its run: Missed: the run due /);
    expect(body.blocks[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: expect.stringContaining(`:red_circle: *<http://cronbeat.test:8787/#/monitors/${monitor.id}|db backup missed its run>*\nMissed: the run due `), verbatim: true },
    });
    // The footer gives times in words in a named zone, never an ISO string.
    const footer = body.blocks.at(-1).elements[0].text;
    expect(footer).toBe('Cronbeat · Schedule "* * * * *" (every minute), grace 1 min');
    expect(JSON.parse(slack.requests[1].body).blocks[0].text.text).toContain(':large_green_circle:');
  });

  it('discord: a webhook message with one embed, red for a failure and green for a recovery', async () => {
    fixture = deliveryFixture();
    const discord = await receiver();
    fixture.channel('discord', { webhook_url: `${discord.url}/api/webhooks/1/abc` });
    const monitor = await failThenRecover();
    const body = JSON.parse(discord.requests[0].body);
    expect(discord.requests[0].url).toBe('/api/webhooks/1/abc');
    expect(body).toEqual({
      username: 'Cronbeat',
      allowed_mentions: { parse: [] },
      embeds: [
        {
          title: 'db backup missed its run',
          description: 'Missed: the run due Sat 21 Nov 09:51 UTC did not come \\(grace 1 min\\); no run has come yet.',
          url: `http://cronbeat.test:8787/#/monitors/${monitor.id}`,
          color: 0xd93025,
          footer: { text: 'Schedule "* * * * *" (every minute), grace 1 min' },
        },
      ],
    });
    expect(JSON.parse(discord.requests[1].body).embeds[0].color).toBe(0x188038);
  });

  it('telegram: sendMessage of the Bot API (address overridable) with the chat id and an HTML text', async () => {
    fixture = deliveryFixture();
    const telegram = await receiver();
    fixture.channel('telegram', { bot_token: '123456:ABC-def_ghi', chat_id: '-100200300', api_url: telegram.url });
    const monitor = await fixture.failMonitor('<db> & co');
    await fixture.worker.runDue();
    const [request] = telegram.requests;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/bot123456:ABC-def_ghi/sendMessage');
    expect(JSON.parse(request.body)).toEqual({
      chat_id: '-100200300',
      text: expect.stringMatching(
        new RegExp(`^🔴 <b>&lt;db&gt; &amp; co missed its run</b>\\nMissed: the run due [^]*\\n<a href="http://cronbeat.test:8787/#/monitors/${monitor.id}">Open in Cronbeat</a>$`),
      ),
      parse_mode: 'HTML',
      disable_web_page_preview: true,
    });
  });

  it('telegram: the bot token never shows in an error', async () => {
    const telegram = await new Receiver([{ status: 401, body: '{"ok":false,"description":"Unauthorized"}' }]).start();
    cleanups.push(() => telegram.stop());
    fixture = deliveryFixture();
    fixture.channel('telegram', { bot_token: '999:SECRET_token', chat_id: '42', api_url: telegram.url });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    expect(telegram.requests.map((r) => r.url)).toEqual(['/bot999:SECRET_token/sendMessage']);
    const [delivery] = fixture.deliveries();
    expect(delivery.last_error).toBe("Telegram says Unauthorized: this will not work until the channel's settings change; not retried.");
    expect(JSON.stringify(fixture.store.db.prepare('SELECT * FROM deliveries').all())).not.toContain('SECRET_token');
  });

  it('email without TLS: to every address, the state first in the subject, and a link to the monitor', async () => {
    fixture = deliveryFixture();
    const smtp = await startSmtpReceiver();
    cleanups.push(smtp.stop);
    fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'none', from: 'cronbeat@example.com', to: 'ops@example.com, me@example.com' });
    const monitor = await fixture.failMonitor('db backup');
    await fixture.worker.runDue();
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'sent', last_error: null });
    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail).toMatchObject({ from: 'cronbeat@example.com', to: ['ops@example.com', 'me@example.com'], secure: false });
    expect(mail.raw).toMatch(/^Subject: MISSED \| db backup$/m);
    expect(mail.raw).toContain(`http://cronbeat.test:8787/#/monitors/${monitor.id}`);
  });

  it('email over TLS and over STARTTLS with a login, trusting a private CA', async () => {
    const ca = makeCa();
    const leaf = makeLeaf({ ca, names: ['localhost', '127.0.0.1'] });
    const tls = await startSmtpReceiver({ secure: true, tls: { key: leaf.keyPem, cert: leaf.certPem }, login: { user: 'bot', pass: 'pw-9876' } });
    const starttls = await startSmtpReceiver({ tls: { key: leaf.keyPem, cert: leaf.certPem }, login: { user: 'bot', pass: 'pw-9876' } });
    cleanups.push(tls.stop, starttls.stop);
    fixture = deliveryFixture(undefined, { trustedCa: [ca.certPem] });
    const common = { host: 'localhost', user: 'bot', password: 'pw-9876', from: 'cronbeat@example.com', to: 'ops@example.com' };
    fixture.channel('email', { ...common, port: tls.port, tls: 'tls' });
    fixture.channel('email', { ...common, port: starttls.port, tls: 'starttls' });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    expect(fixture.deliveries().map((d) => [d.status, d.last_error])).toEqual([['sent', null], ['sent', null]]);
    expect(tls.mails).toMatchObject([{ user: 'bot', secure: true }]);
    expect(starttls.mails).toMatchObject([{ user: 'bot', secure: true }]);
  });

  it('email: a refused login is the receiver\'s error, without the password, and not retried', async () => {
    fixture = deliveryFixture();
    const smtp = await startSmtpReceiver({ login: { user: 'bot', pass: 'right' } });
    cleanups.push(smtp.stop);
    fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'none', user: 'bot', password: 'wrong-password', from: 'a@example.com', to: 'b@example.com' });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    const [delivery] = fixture.deliveries();
    expect(delivery.status).toBe('failed');
    expect(delivery.last_error).toMatch(/Invalid username or password/);
    expect(delivery.last_error).not.toContain('wrong-password');
  });
});
