import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { NO_DESKTOP_LINE } from '../../agent/domain/alerts/desktop';
import { runCli, spawnCli, tempFolder } from '../helpers/cli';

/*
 * `cronbeat serve` where no desktop is (no DISPLAY nor WAYLAND_DISPLAY: a server, a container, a
 * service): one line at start says popups are off, no popup is tried, and the agent tells the
 * dashboard so, which then promises no desktop.
 */
vi.setConfig({ testTimeout: 60_000 });

const stops: (() => void)[] = [];
afterAll(() => stops.forEach((stop) => stop()));

/** A notify-send first on PATH that notes each call. */
function notingNotifySend(): { bin: string; called: () => boolean } {
  const bin = tempFolder('cronbeat-noting-bin-');
  const calls = join(bin, 'called');
  const script = join(bin, 'notify-send');
  writeFileSync(script, `#!/bin/sh\ntouch '${calls}'\n`);
  chmodSync(script, 0o755);
  return { bin, called: () => existsSync(calls) };
}

async function serve(display: Record<string, string>) {
  const notify = notingNotifySend();
  const dataDir = tempFolder();
  const apiToken = (await runCli(['token', 'create', '--data-dir', dataDir])).stdout.trim();
  const child = spawnCli(['serve', '--port', '0', '--data-dir', dataDir], { env: { PATH: `${notify.bin}:${process.env.PATH}`, ...display } });
  stops.push(() => child.kill('SIGTERM'));
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = await new Promise<string>((done) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /^Cronbeat listening on (http:\/\/\S+)$/.exec(line);
      if (match) done(match[1]);
    });
  });
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${url}${path}`, { ...init, headers: { Authorization: `Bearer ${apiToken}`, 'Content-Type': 'application/json' } });
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  return { url, api, notify, stderr: () => stderr, stop: async () => (child.kill('SIGTERM'), await exited) };
}

describe('cronbeat serve without a desktop', () => {
  it('says once that popups are off, tries none when a monitor fails, and tells the dashboard', async () => {
    const agent = await serve({ DISPLAY: '', WAYLAND_DISPLAY: '' });
    expect(await (await agent.api('/api/agent')).json()).toMatchObject({ popups: false });
    const created = await agent.api('/api/monitors', { method: 'POST', body: JSON.stringify({ name: 'nightly-backup', timezone: 'UTC', schedule: '0 3 * * *', duration: 30 }) });
    const { token, id } = (await created.json()) as { token: string; id: number };
    const run = await runCli(['run', token, '--url', agent.url, '--', 'sh', '-c', 'exit 3'], { env: { CRONBEAT_DATA_DIR: tempFolder() } });
    expect(run.status).toBe(3);
    await expect.poll(async () => ((await (await agent.api(`/api/monitors/${id}`)).json()) as { status: string }).status).toBe('failed');
    await agent.stop();
    expect(agent.notify.called()).toBe(false);
    expect(agent.stderr().split('\n').filter((line) => line === NO_DESKTOP_LINE)).toHaveLength(1);
  });

  it('with a desktop, says nothing of it and shows popups', async () => {
    const agent = await serve({ DISPLAY: ':99' });
    expect(await (await agent.api('/api/agent')).json()).toMatchObject({ popups: true });
    await agent.stop();
    expect(agent.stderr()).not.toContain('No desktop here');
  });
});
