import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver, type Answer } from '../../helpers/receiver';
import { startSmtpReceiver } from '../../helpers/smtpReceiver';
import { discordLike, parseTelegramHtml, slackLike, telegramLike } from '../../helpers/chatServices';
import { GROUP_WAIT_MS } from '../../../agent/domain/alerts/digest';
import { deliveryFixture } from './deliveryFixture';

/*
 * A monitor's name, its server's name and what its job printed are anyone's words: sent to a chat
 * they must read as text, never as a mention of the whole channel, a link to elsewhere, markup or
 * a header of their own. Each kind is sent one alert and one digest of such monitors, received by
 * a local stand-in of the service that parses what it gets as the service would.
 */

const EVIL = 'https://evil.example';
const NAME = `<!channel> <${EVIL}/n|reset your password> @everyone <@U024BE7LH> [click](${EVIL}/md) *bold* _it_ ~st~ \`code\` ||spoiler|| # head > quote <b>x</b> &amp; ${EVIL}/bare\r\nBcc: victim@example.com`;
const SERVER = `<!here>*srv*_x_[a](${EVIL}/s)@everyone`;
const OUTPUT = `dump ok\n\`\`\`\n<!channel> [x](${EVIL}/o) </pre><a href="${EVIL}/t">x</a> @everyone\n\`\`\`\nthe end`;
const BASE = 'http://cronbeat.test:8787/#/';

type Setup = Awaited<ReturnType<typeof setUp>>;
let single: Setup;
let digest: Setup;
const stops: Array<() => Promise<void>> = [];

async function setUp(mode: 'single' | 'digest') {
  const fixture = deliveryFixture();
  const start = async (answer: Answer) => {
    const receiver = await new Receiver([answer]).start();
    stops.push(() => receiver.stop());
    return receiver;
  };
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
  const count = mode === 'single' ? 1 : 5;
  const monitors = Array.from({ length: count }, (_, i) => fixture.monitor({ name: `${NAME}${i || ''}`, schedule: '* * * * *', duration: 1, now: now - 10 * 60_000 }));
  for (const m of monitors) fixture.store.db.prepare('UPDATE monitors SET tags = ? WHERE id = ?').run(`server:${SERVER}`, m.id);
  if (mode === 'single') await fixture.pulse(monitors[0].token, now, { kind: 'fail', exitCode: 3, body: OUTPUT });
  else await fixture.step(now);
  await fixture.worker.runDue();
  fixture.clock.now += GROUP_WAIT_MS;
  await fixture.worker.runDue();
  await fixture.worker.runDue();
  stops.push(() => fixture.close());
  return { fixture, slack, discord, telegram, ntfy, smtp };
}

beforeAll(async () => {
  single = await setUp('single');
  digest = await setUp('digest');
});
afterAll(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

/** Each setup's one request to `pick`'s receiver, as JSON, after checking the service accepted it. */
function bodies(pick: (s: Setup) => Receiver) {
  return [single, digest].map((setup) => {
    expect(pick(setup).requests).toHaveLength(1);
    expect(setup.fixture.deliveries().filter((d) => d.status !== 'sent').map((d) => d.last_error)).toEqual([]);
    return JSON.parse(pick(setup).requests[0].body);
  });
}

describe('hostile names, server names and output, as each service reads them', () => {
  it('slack: & < > escaped in the text and every block (no <!channel>, <@…>, <url|…> but our own link), mrkdwn verbatim, the output fenced', () => {
    for (const body of bodies((s) => s.slack)) {
      const mrkdwn = body.blocks.flatMap((b: { text?: object; elements?: object[] }) => (b.text ? [b.text] : b.elements ?? []));
      for (const object of mrkdwn) expect(object).toMatchObject({ type: 'mrkdwn', verbatim: true });
      for (const text of [body.text, ...mrkdwn.map((o: { text: string }) => o.text)]) {
        const ours = text.replace(/<http:\/\/cronbeat\.test:8787\/#\/[^|<>]*\|[^<>]*>/g, '');
        expect(ours).not.toMatch(/[<>]/);
      }
      expect(body.blocks[0].text.text).toContain('&lt;!channel&gt; &lt;https://evil.example/n|reset your password&gt;');
      expect(body.text).not.toContain('<');
    }
    const [alert] = bodies((s) => s.slack);
    const code = alert.blocks[1].text.text as string;
    expect(code.startsWith('```\n') && code.endsWith('\n```')).toBe(true);
    expect(code.slice(4, -4)).not.toContain('```');
    expect(code).toContain('&lt;!channel&gt;');
  });

  it('discord: every markdown character escaped in the title and description, mentions off, the output fenced', () => {
    for (const body of bodies((s) => s.discord)) {
      expect(body.allowed_mentions).toEqual({ parse: [] });
      const [embed] = body.embeds;
      const [markdown, ...code] = (embed.description as string).split('\n```\n');
      for (const text of [embed.title, markdown.replace(`${BASE}monitors?status=failed`, '')]) {
        const unescaped = text.replace(/\\[^]/g, '');
        expect(unescaped).not.toMatch(/[*_~`|>#[\]()<@]/);
        expect(text).not.toContain('https://');
      }
      if (code.length) {
        expect(code.join('\n```\n').endsWith('\n```')).toBe(true);
        expect(code.join('\n```\n').slice(0, -4)).not.toContain('```');
      }
    }
    expect(bodies((s) => s.discord)[0].embeds[0].title).toContain('\\<!channel\\>');
  });

  it('telegram: Telegram parses the HTML into our tags only (bold, pre, our link), the names as text', () => {
    for (const body of bodies((s) => s.telegram)) {
      expect(body.parse_mode).toBe('HTML');
      const parsed = parseTelegramHtml(body.text);
      if ('error' in parsed) throw new Error(parsed.error);
      for (const tag of parsed.tags) expect(tag).toMatch(/^<\/?(b|pre|a)>$|^<a href="http:\/\/cronbeat\.test:8787\/#\/[^"]*">$/);
      expect(parsed.text).toContain(`<!channel> <${EVIL}/n|reset your password>`);
    }
  });

  it('ntfy: plain text (never markdown), sent as JSON with the title on one line and no header of ours carrying a name', () => {
    for (const setup of [single, digest]) {
      const [request] = setup.ntfy.requests;
      const body = JSON.parse(request.body);
      expect(body.markdown).toBeUndefined();
      expect(body.title).not.toMatch(/[\r\n]/);
      expect(Object.keys(request.headers).filter((h) => /markdown|title|x-/i.test(h))).toEqual([]);
      expect(JSON.stringify(request.headers)).not.toContain('evil');
    }
    expect(JSON.parse(single.ntfy.requests[0].body).title).toContain('reset your password> @everyone');
  });

  it('email: the subject one header line (no Bcc of a name\'s), the HTML part escaped', () => {
    for (const setup of [single, digest]) {
      expect(setup.smtp.mails).toHaveLength(1);
      const raw = setup.smtp.mails[0].raw;
      const headers = raw.slice(0, raw.indexOf('\r\n\r\n'));
      expect(headers).not.toMatch(/^Bcc:/im);
      expect(setup.smtp.mails[0].to).toEqual(['ops@example.com']);
      // The text part says it all as it is (no mail reader makes it markup); the HTML part escapes it.
      const html = raw.slice(raw.indexOf('Content-Type: text/html')).replace(/=\r\n/g, '').replace(/=3D/g, '=');
      expect(html).toContain('&lt;');
      expect(html).not.toContain(`<a href="${EVIL}`);
      expect(html).not.toContain('<b>x</b>');
      expect(html).not.toContain('</pre><a');
    }
    const raw = single.smtp.mails[0].raw.replace(/=\r\n/g, '').replace(/=3D/g, '=');
    expect(raw).toContain('&lt;!channel&gt;');
  });
});
