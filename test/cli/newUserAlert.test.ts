import { afterAll, describe, expect, it, vi } from 'vitest';
import { Receiver } from '../helpers/receiver';
import { startSmtpReceiver } from '../helpers/smtpReceiver';
import { runCli, startServe, tempFolder, type ServeProcess } from '../helpers/cli';
import { until } from '../helpers/until';

/*
 * Tried as a new user would: a failing `cronbeat run -- sh -c 'echo disk full >&2;
 * exit 3'` reaches a webhook, an ntfy topic and an email with the line "disk full", exit code 3
 * and a link under the public URL. Real processes: `cronbeat serve`, `cronbeat run`, local
 * HTTP receivers and a real SMTP server.
 */
vi.setConfig({ testTimeout: 60_000 });

const PUBLIC_URL = 'https://cron.example.com';
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('a new user\'s failing job', () => {
  it('reaches a webhook, an ntfy topic and an email with what it said, its exit code and a link under the public URL', async () => {
    const hook = await new Receiver().start();
    const ntfy = await new Receiver().start();
    const smtp = await startSmtpReceiver();
    cleanups.push(() => hook.stop(), () => ntfy.stop(), () => smtp.stop());

    const dataDir = tempFolder();
    const token = (await runCli(['token', 'create', '--data-dir', dataDir])).stdout.trim();
    const serve: ServeProcess = await startServe(['--data-dir', dataDir, '--no-popups', '--public-url', `${PUBLIC_URL}/`]);
    cleanups.push(() => serve.stop());
    const api = (path: string, body: unknown) =>
      fetch(`${serve.url}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));

    for (const channel of [
      { name: 'hook', kind: 'webhook', settings: { url: `${hook.url}/cronbeat` } },
      { name: 'phone', kind: 'ntfy', settings: { server_url: ntfy.url, topic: 'backups' } },
      { name: 'inbox', kind: 'email', settings: { host: '127.0.0.1', port: smtp.port, tls: 'none', from: 'cronbeat@example.com', to: 'me@example.com' } },
    ]) {
      expect((await api('/api/channels', channel)).status).toBe(201);
    }
    const monitor = (await api('/api/monitors', { name: 'nightly-backup', timezone: 'Europe/Paris', schedule: '0 3 * * *', duration: 30 })).body;
    const link = `${PUBLIC_URL}/#/monitors/${monitor.id}`;

    const run = await runCli(['run', monitor.token, '--url', serve.url, '--', 'sh', '-c', 'echo disk full >&2; exit 3'], {
      env: { CRONBEAT_DATA_DIR: tempFolder() },
    });
    expect(run.status).toBe(3);
    expect(run.stderr).toContain('disk full');

    await until(() => hook.requests.length && ntfy.requests.length && smtp.mails.length, 'the three alerts', 20_000);

    const webhook = JSON.parse(hook.requests[0].body);
    expect(webhook).toMatchObject({
      event: 'monitor.failed',
      title: 'nightly-backup failed (exit 3)',
      reason: { kind: 'failed', exit_code: 3 },
      run: { exit_code: 3, output_tail: 'disk full' },
      link,
    });

    const phone = JSON.parse(ntfy.requests[0].body);
    expect(phone).toMatchObject({ topic: 'backups', title: 'nightly-backup failed (exit 3)', click: link, priority: 4 });
    expect(phone.message).toMatch(/^Failed: the job exited with code 3 after \d+ (ms|s)\.\n/);
    expect(phone.message).toContain('\nOutput:\n  disk full\n');
    expect(phone.message).toContain(`Open: ${link}`);

    const mail = smtp.mails[0].raw.replace(/=\r?\n/g, '').replace(/\r\n/g, '\n');
    expect(mail).toMatch(/^Subject: FAILED \| nightly-backup \(exit 3\)$/m);
    expect(mail).toContain('disk full');
    expect(mail).toContain(link);
  });

  it('refuses a public URL that cannot be a link base, naming the option', async () => {
    const result = await runCli(['serve', '--port', '0', '--data-dir', tempFolder(), '--public-url', 'https://me:secret@cron.example.com']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--public-url must not carry a user name or password');
    const fromEnv = await runCli(['serve', '--port', '0', '--data-dir', tempFolder()], { env: { CRONBEAT_PUBLIC_URL: 'cron.example.com' } });
    expect(fromEnv.status).toBe(2);
    expect(fromEnv.stderr).toContain('CRONBEAT_PUBLIC_URL must be an absolute http:// or https:// URL');
  });
});
