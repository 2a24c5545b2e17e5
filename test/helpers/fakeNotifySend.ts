import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startServe, tempFolder, type ServeProcess } from './cli';

/**
 * A notify-send that writes its arguments down, one per line, in a file of its own named by the
 * moment it started: popups shown together run side by side, and lines appended to one file would mix.
 * `calls` are each call's arguments, in the order they started; `titles` each call's first.
 */
export function fakeNotifySend(): { bin: string; calls: () => string[][]; titles: () => string[] } {
  const bin = tempFolder('cronbeat-fake-bin-');
  const calls = join(bin, 'calls');
  mkdirSync(calls);
  const script = join(bin, 'notify-send');
  // Written under a name of its own, then renamed: a call still being written down is not read.
  writeFileSync(script, `#!/bin/sh\nname=$(date +%s%N)-$$\nprintf '%s\\n' "$@" > '${calls}'/.$name\nmv '${calls}'/.$name '${calls}'/$name\n`);
  chmodSync(script, 0o755);
  const read = () =>
    readdirSync(calls)
      .filter((name) => !name.startsWith('.'))
      .sort()
      .map((name) => readFileSync(join(calls, name), 'utf8').split('\n').filter(Boolean));
  return { bin, calls: read, titles: () => read().map((call) => call[0]) };
}

/** A real `cronbeat serve` on a new data folder, on a desktop whose notify-send is `notify`'s, and a full API token of it. */
export async function serveWithPopups(notify: { bin: string }): Promise<{ serve: ServeProcess; apiToken: string }> {
  const dataDir = tempFolder();
  const apiToken = (await runCli(['token', 'create', '--data-dir', dataDir])).stdout.trim();
  const serve = await startServe(['--data-dir', dataDir], { PATH: `${notify.bin}:${process.env.PATH}`, DISPLAY: ':99' });
  return { serve, apiToken };
}

/** Makes `count` monitors (job-1…job-N), then fails them all at once with a fail pulse each. */
export async function failMonitorsAtOnce(serve: ServeProcess, apiToken: string, count: number): Promise<void> {
  const tokens: string[] = [];
  for (let i = 1; i <= count; i++) {
    const created = await fetch(`${serve.url}/api/monitors`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `job-${i}`, timezone: 'UTC', schedule: '0 3 * * *', duration: 30 }),
    });
    tokens.push(((await created.json()) as { token: string }).token);
  }
  await Promise.all(tokens.map((token) => fetch(`${serve.url}/api/pulse/${token}/fail`, { method: 'POST', body: 'disk full' })));
}
