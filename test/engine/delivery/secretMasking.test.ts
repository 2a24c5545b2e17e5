import { afterEach, describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver';
import { startSmtpReceiver } from '../../helpers/smtpReceiver';
import { GROUP_WAIT_MS } from '../../../agent/domain/alerts/digest';
import { deliveryFixture } from './deliveryFixture';

/*
 * A job that printed AWS_SECRET_ACCESS_KEY=… had it posted to Slack, Discord, Telegram, ntfy and
 * by email, to everyone in those rooms for years. Well-known shapes of secrets are now masked in
 * whatever leaves the agent for a channel (a digest and a webhook's JSON included); what is stored
 * keeps the output as it was, and a channel whose mask_secrets is false gets it verbatim.
 */

let fixture: ReturnType<typeof deliveryFixture> | undefined;
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
  await fixture?.close();
  fixture = undefined;
});

/** The telling part of each secret (no character any service escapes), and where the job printed it. */
const SECRETS = {
  aws: 'wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY',
  awsId: 'IOSFODNN7EXAMPLE',
  password: 'hunter2correcthorse',
  bearer: 'eyJzdWIiOiIxIn0sig',
  urlPassword: 's3cr3turlpass',
  github: 'abcdefghijklmnopqrstuvwxyz0123456789',
  slack: '123456789012abcdefghijkl',
  privateKey: 'MIIEowIBAAKCAQEA7bqPRIVATE',
};
const OUTPUT = [
  `export AWS_SECRET_ACCESS_KEY=${SECRETS.aws}; key id AKIA${SECRETS.awsId}; {"password": "${SECRETS.password}"}; curl -H "Authorization: Bearer ${SECRETS.bearer}"`,
  `git clone https://deploy:${SECRETS.urlPassword}@git.example.com/r.git with ghp_${SECRETS.github} and xoxb-${SECRETS.slack}`,
  '-----BEGIN RSA PRIVATE KEY-----',
  SECRETS.privateKey,
  '-----END RSA PRIVATE KEY-----',
].join('\n');

async function start() {
  const receiver = await new Receiver().start();
  stops.push(() => receiver.stop());
  return receiver;
}

/** One receiver per kind (a second Slack channel with masking off), and the SMTP server. */
async function everyKind() {
  const r = { webhook: await start(), ntfy: await start(), slack: await start(), discord: await start(), telegram: await start(), verbatim: await start() };
  const smtp = await startSmtpReceiver();
  stops.push(smtp.stop);
  fixture!.channel('webhook', { url: `${r.webhook.url}/in` });
  fixture!.channel('ntfy', { server_url: r.ntfy.url, topic: 'ops' });
  fixture!.channel('slack', { webhook_url: `${r.slack.url}/services/T/B/X` });
  fixture!.channel('discord', { webhook_url: `${r.discord.url}/api/webhooks/1/abc` });
  fixture!.channel('telegram', { bot_token: '1:A', chat_id: '42', api_url: r.telegram.url });
  fixture!.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'none', from: 'cb@example.com', to: 'ops@example.com' });
  fixture!.channel('slack', { webhook_url: `${r.verbatim.url}/services/T/B/Y`, mask_secrets: false });
  return { ...r, smtp };
}

const leaked = (text: string) => Object.entries(SECRETS).filter(([, secret]) => text.includes(secret)).map(([name]) => name);

describe('secrets in job output', () => {
  it('are masked in every kind of channel, kept in what is stored, and sent as they are where mask_secrets is false', async () => {
    fixture = deliveryFixture();
    const r = await everyKind();
    const monitor = fixture.monitor({ name: 'deploy', schedule: '* * * * *', duration: 1 });
    await fixture.pulse(monitor.token, fixture.clock.now, { kind: 'fail', exitCode: 1, body: OUTPUT });
    await fixture.worker.runDue();

    const sent = {
      webhook: r.webhook.requests[0].body,
      ntfy: r.ntfy.requests[0].body,
      slack: r.slack.requests[0].body,
      discord: r.discord.requests[0].body,
      telegram: r.telegram.requests[0].body,
      email: r.smtp.mails[0].raw.replace(/=\r\n/g, '').replace(/=3D/g, '='),
    };
    for (const [kind, body] of Object.entries(sent)) {
      expect([kind, leaked(body)]).toEqual([kind, []]);
      expect(body).toContain('AWS_SECRET_ACCESS_KEY=***');
    }
    expect(JSON.parse(sent.webhook).run.output_tail).toBe(
      [
        'export AWS_SECRET_ACCESS_KEY=***; key id AKIA***; {"password": "***"}; curl -H "Authorization: Bearer ***"',
        'git clone https://deploy:***@git.example.com/r.git with ghp_*** and xoxb-***',
        '-----BEGIN RSA PRIVATE KEY-----',
        '***',
        '-----END RSA PRIVATE KEY-----',
      ].join('\n'),
    );
    expect(leaked(r.verbatim.requests[0].body)).toEqual(Object.keys(SECRETS));
    // What is stored (and so what the API and the dashboard show) is what the job said.
    const [stored] = fixture.notifications();
    expect(leaked(JSON.stringify(stored))).toEqual(Object.keys(SECRETS));
  });

  it('are masked in a digest, a webhook\'s every alert included', async () => {
    fixture = deliveryFixture();
    const hook = await start();
    fixture.channel('webhook', { url: `${hook.url}/in` });
    for (let i = 0; i < 5; i++) {
      const monitor = fixture.monitor({ name: `deploy-${i}`, schedule: '* * * * *', duration: 1 });
      await fixture.pulse(monitor.token, fixture.clock.now, { kind: 'fail', exitCode: 1, body: OUTPUT });
    }
    await fixture.worker.runDue();
    fixture.clock.now += GROUP_WAIT_MS;
    await fixture.worker.runDue();
    await fixture.worker.runDue();
    const digest = JSON.parse(hook.requests[0].body);
    expect(digest).toMatchObject({ event: 'digest', count: 5 });
    expect(leaked(hook.requests[0].body)).toEqual([]);
    expect(digest.alerts[0].run.output_tail).toContain('AWS_SECRET_ACCESS_KEY=***');
  });
});
