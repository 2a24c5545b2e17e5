import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, spawnCli, tempFolder } from '../helpers/cli';
import { popupFailure } from '../../agent/engine/popups/desktopNotifier';

// docs/security.md: a job's output never reaches the agent's log. A notify-send that fails
// used to be quoted whole in the "popups unavailable" warning, the popup's text included.
vi.setConfig({ testTimeout: 60_000 });

const MARKER = 'job-output-marker-51f0c2';
const stops: (() => void)[] = [];
afterAll(() => stops.forEach((stop) => stop()));

/** A notify-send first on PATH that repeats what it was asked to show on stderr and fails. */
function failingNotifySend(): { bin: string; called: () => boolean } {
  const bin = tempFolder('cronbeat-failing-bin-');
  const calls = join(bin, 'called');
  const script = join(bin, 'notify-send');
  writeFileSync(script, `#!/bin/sh\ntouch '${calls}'\necho "cannot show: $*" >&2\nexit 4\n`);
  chmodSync(script, 0o755);
  return { bin, called: () => existsSync(calls) };
}

describe('a popup that cannot be shown', () => {
  it('is logged as how the notifier ended, never with the popup text (the job output)', async () => {
    const notify = failingNotifySend();
    const dataDir = tempFolder();
    const apiToken = (await runCli(['token', 'create', '--data-dir', dataDir])).stdout.trim();
    const serve = spawnCli(['serve', '--port', '0', '--data-dir', dataDir], { env: { PATH: `${notify.bin}:${process.env.PATH}`, DISPLAY: ':99' } });
    stops.push(() => serve.kill('SIGTERM'));
    let log = '';
    const warned = new Promise<void>((done) => {
      serve.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
        log += chunk;
        if (/popups are unavailable/.test(log)) done();
      });
    });
    const url = await new Promise<string>((done) => {
      createInterface({ input: serve.stdout! }).on('line', (line) => {
        const match = /^Cronbeat listening on (http:\/\/\S+)$/.exec(line);
        if (match) done(match[1]);
      });
    });
    const created = await fetch(`${url}/api/monitors`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'nightly-backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 30 }),
    });
    const { token } = (await created.json()) as { token: string };

    const run = await runCli(['run', token, '--url', url, '--', 'sh', '-c', `echo ${MARKER} >&2; exit 3`], { env: { CRONBEAT_DATA_DIR: tempFolder() } });
    expect(run.status).toBe(3);
    await warned;
    expect(notify.called()).toBe(true);
    const warning = log.split('\n').find((line) => /popups are unavailable/.test(line))!;
    expect(JSON.parse(warning).msg).toBe('Desktop popups are unavailable on this machine (the notifier exited with status 4); failures still reach /api/notifications.');
    expect(log).not.toContain(MARKER);
  });
});

describe('popupFailure', () => {
  const popup = { title: '✗ nightly-backup failed', body: `${MARKER} · 2 s` };
  it('says how the notifier ended, or a message of its own that holds nothing of the popup', () => {
    const killed = Object.assign(new Error(`Command failed: notify-send "${popup.title}" "${popup.body}"`), { code: null, signal: 'SIGKILL' });
    expect(popupFailure(killed, popup)).toBe('the notifier was stopped by SIGKILL');
    expect(popupFailure(Object.assign(new Error('spawn notify-send ENOENT'), { code: 'ENOENT' }), popup)).toBe('the notifier could not start (ENOENT)');
    expect(popupFailure(`cannot show ${popup.body}`, popup)).toBe('the notifier wrote an error');
    expect(popupFailure(new Error(`no display for ${popup.body}`), popup)).toBe('the notifier failed');
    expect(popupFailure(new Error('notify-send must be installed on the system.'), popup)).toBe('notify-send must be installed on the system.');
  });
});
