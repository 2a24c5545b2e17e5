import { afterEach, describe, expect, it } from 'vitest';
import { Receiver } from '../../helpers/receiver';
import { startSmtpReceiver } from '../../helpers/smtpReceiver';
import { at } from '../engineFixture';
import { deliveryFixture } from './deliveryFixture';

/*
 * A failed run's alert said "Job reported failure" and nothing the job said.
 * Every channel now carries what happened in words, the job's last lines (a few in chat, more
 * by email, all that is kept in a webhook's JSON), its duration, when it was due in the
 * monitor's zone and the admin's, and the monitor's link — tried against real receivers.
 */

let fixture: ReturnType<typeof deliveryFixture>;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((stop) => stop()));
  await fixture?.close();
});

const receiver = async () => {
  const r = await new Receiver().start();
  cleanups.push(() => r.stop());
  return r;
};

/** 30 lines of output ending in the error, as `cronbeat run` sends them with its end pulse. */
const OUTPUT = [...Array.from({ length: 28 }, (_, i) => `dumping table ${i + 1}`), 'pg_dump: error: connection refused', 'disk full'].join('\n');

/** A monitor due at 03:00 Paris that starts at 03:00:04 and fails at 03:00:16 with exit 3 and OUTPUT. */
async function failWithOutput() {
  const monitor = fixture.monitor({ name: 'nightly-backup', schedule: '0 3 * * *', timezone: 'Europe/Paris', duration: 30, now: at('2026-11-20T12:00:00Z') });
  await fixture.pulse(monitor.token, at('2026-11-21T02:00:04Z'), { kind: 'start', rid: 'r1' });
  await fixture.pulse(monitor.token, at('2026-11-21T02:00:16Z'), { kind: 'fail', exitCode: 3, rid: 'r1', body: OUTPUT });
  return monitor;
}

describe('what an alert says', () => {
  it('webhook: the alert as stable JSON — reason, monitor, run with ISO UTC times, duration_ms, exit code, output tail, link', async () => {
    fixture = deliveryFixture(at('2026-11-21T02:00:16Z'), { adminZone: 'America/New_York' });
    const hook = await receiver();
    fixture.channel('webhook', { url: `${hook.url}/in` });
    const monitor = await failWithOutput();
    await fixture.worker.runDue();
    const body = JSON.parse(hook.requests[0].body);
    expect(body).toEqual({
      schema: 'cronbeat.alert.v1',
      event: 'monitor.failed',
      notification_id: expect.any(String),
      notification_type: 'App\\Notifications\\MonitorFailedNotification',
      at: '2026-11-21T02:00:16.000000Z',
      title: 'nightly-backup failed (exit 3)',
      text: 'Failed: the job exited with code 3 after 12 s.',
      reason: { kind: 'failed', exit_code: 3 },
      monitor: { id: monitor.id, name: 'nightly-backup', slug: null, tags: [], schedule: '0 3 * * *', timezone: 'Europe/Paris', grace_minutes: 30 },
      server: null,
      run: {
        started_at: '2026-11-21T02:00:04.000000Z',
        ended_at: '2026-11-21T02:00:16.000000Z',
        duration_ms: 12_000,
        exit_code: 3,
        output_tail: OUTPUT,
        output_truncated: false,
      },
      expected_at: '2026-11-21T02:00:00.000000Z',
      failing_since: null,
      link: `http://cronbeat.test:8787/#/monitors/${monitor.id}`,
    });
  });

  it('chat (Slack): the last few lines, the run in the monitor\'s zone and the admin\'s, no ISO time anywhere', async () => {
    fixture = deliveryFixture(at('2026-11-21T02:00:16Z'), { adminZone: 'America/New_York' });
    const slack = await receiver();
    fixture.channel('slack', { webhook_url: `${slack.url}/services/T/B/X` });
    await failWithOutput();
    await fixture.worker.runDue();
    const body = JSON.parse(slack.requests[0].body);
    const texts = body.blocks.map((b: { text?: { text: string }; elements?: Array<{ text: string }> }) => b.text?.text ?? b.elements![0].text);
    expect(texts[0]).toMatch(/^:red_circle: \*<http:\/\/cronbeat\.test:8787\/#\/monitors\/\d+\|nightly-backup failed \(exit 3\)>\*\nFailed: the job exited with code 3 after 12 s\.$/);
    expect(texts[1]).toBe('```\ndumping table 26\ndumping table 27\ndumping table 28\npg_dump: error: connection refused\ndisk full\n```');
    expect(texts[2]).toBe(
      'Cronbeat · Ran Sat 21 Nov 03:00:04–03:00:16 Europe/Paris (Fri 20 Nov 21:00:04 America/New_York)' +
        ' · Expected Sat 21 Nov 03:00 Europe/Paris (Fri 20 Nov 21:00 America/New_York)' +
        ' · Schedule "0 3 * * *" (at 03:00 Europe/Paris), grace 30 min',
    );
    expect(slack.requests[0].body).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it('email: the state first in the subject, every line of the output in a monospace block', async () => {
    fixture = deliveryFixture(at('2026-11-21T02:00:16Z'));
    const smtp = await startSmtpReceiver();
    cleanups.push(smtp.stop);
    fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'none', from: 'cronbeat@example.com', to: 'ops@example.com' });
    await failWithOutput();
    await fixture.worker.runDue();
    const [mail] = smtp.mails;
    expect(mail.raw).toMatch(/^Subject: FAILED \| nightly-backup \(exit 3\)$/m);
    const unfolded = mail.raw.replace(/=\r?\n/g, '').replace(/\r\n/g, '\n');
    expect(unfolded).toContain('dumping table 1\n');
    expect(unfolded).toContain('disk full');
    expect(unfolded).toContain('<pre style=3D"font-family:monospace');
    expect(unfolded).toContain('channel &quot;email channel&quot;');
  });

  it('recovery: says after how long, with the run that recovered it', async () => {
    fixture = deliveryFixture(at('2026-11-21T02:00:16Z'));
    const ntfy = await receiver();
    fixture.channel('ntfy', { server_url: ntfy.url, topic: 'ops' });
    const monitor = await failWithOutput();
    await fixture.pulse(monitor.token, at('2026-11-21T04:13:16Z'), { kind: 'success', exitCode: 0, body: 'backup done' });
    await fixture.worker.runDue();
    fixture.clock.now = at('2026-11-21T04:13:20Z');
    await fixture.worker.runDue();
    const recovered = JSON.parse(ntfy.requests[1].body);
    expect(recovered.title).toBe('nightly-backup recovered');
    expect(recovered.message).toMatch(/^Recovered after 2 h 13 min \(exit 0\)\.\nEnded Sat 21 Nov 05:13:16 Europe\/Paris \(04:13:16 UTC\)\n/);
    expect(recovered.message).toContain('\nOutput:\n  backup done\n');
    expect(recovered.tags).toEqual(['white_check_mark']);
  });

  it('terminal colours and control bytes in the output never reach a person (chat, Telegram HTML, ntfy, email)', async () => {
    fixture = deliveryFixture(at('2026-11-21T02:00:16Z'));
    const slack = await receiver();
    const telegram = await receiver();
    const ntfy = await receiver();
    const smtp = await startSmtpReceiver();
    cleanups.push(smtp.stop);
    fixture.channel('slack', { webhook_url: `${slack.url}/services/T/B/X` });
    fixture.channel('telegram', { bot_token: '123456:ABC', chat_id: '42', api_url: telegram.url });
    fixture.channel('ntfy', { server_url: ntfy.url, topic: 'ops' });
    fixture.channel('email', { host: '127.0.0.1', port: smtp.port, tls: 'none', from: 'cronbeat@example.com', to: 'ops@example.com' });
    const monitor = fixture.monitor({ name: 'nightly-backup', schedule: '0 3 * * *', timezone: 'Europe/Paris', duration: 30, now: at('2026-11-20T12:00:00Z') });
    const body = '\u001b[1;31mERROR\u001b[0m: restore failed\u001b]0;title\u0007\nbin:\u0001\u0002\u0000 end\tcol\ndisk full';
    await fixture.pulse(monitor.token, at('2026-11-21T02:00:16Z'), { kind: 'fail', exitCode: 3, body });
    await fixture.worker.runDue();
    const sent = [slack.requests[0].body, telegram.requests[0].body, ntfy.requests[0].body].map((b) => JSON.stringify(JSON.parse(b)));
    for (const text of sent) {
      expect(text).toContain('ERROR: restore failed');
      expect(text).toContain('bin: end\\tcol');
      expect(text).not.toMatch(/\\u00(0[0-8bcef]|1[0-9a-f]|7f)/);
    }
    expect(smtp.mails[0].raw).not.toMatch(/=1B|=00|=01|=07/);
    expect(smtp.mails[0].raw.replace(/=\r?\n/g, '')).toContain('ERROR: restore failed');
  });

  it('exit 137 is said as a kill by SIGKILL, perhaps for memory, in the title and the text', async () => {
    fixture = deliveryFixture(at('2026-11-21T03:00:16Z'));
    const hook = await receiver();
    fixture.channel('webhook', { url: `${hook.url}/in` });
    const monitor = fixture.monitor({ name: 'big-import', schedule: '0 3 * * *', timezone: 'UTC', duration: 30, now: at('2026-11-20T12:00:00Z') });
    await fixture.pulse(monitor.token, at('2026-11-21T03:00:04Z'), { kind: 'start', rid: 'r1' });
    await fixture.pulse(monitor.token, at('2026-11-21T03:00:16Z'), { kind: 'fail', exitCode: 137, rid: 'r1' });
    await fixture.worker.runDue();
    const body = JSON.parse(hook.requests[0].body);
    expect(body.title).toBe('big-import failed (exit 137, killed, SIGKILL: perhaps out of memory)');
    expect(body.text).toBe('Failed: the job exited with code 137 (killed, SIGKILL: perhaps out of memory) after 12 s.');
    expect(body.reason).toEqual({ kind: 'failed', exit_code: 137 });
  });
});
