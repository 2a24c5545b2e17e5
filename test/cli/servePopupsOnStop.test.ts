import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, startServe, tempFolder, type ServeProcess } from '../helpers/cli';

/*
 * Past three popups at once, `cronbeat serve` holds the rest of a burst for a few seconds to show
 * them as one summary, and counts them as shown already (the popup outbox will not show them at
 * the next start). Stopped meanwhile (SIGTERM: systemd, Ctrl-C, a logout), it shows that summary
 * as it stops, as the desktop app does when it quits: they were never shown anywhere else.
 */
vi.setConfig({ testTimeout: 60_000 });

let serve: ServeProcess | undefined;
afterAll(async () => {
  await serve?.stop();
});

/** A notify-send that writes its arguments down, a file per call (calls run side by side). */
function fakeNotifySend(): { bin: string; titles: () => string[] } {
  const bin = tempFolder('cronbeat-fake-bin-');
  const calls = join(bin, 'calls');
  mkdirSync(calls);
  const script = join(bin, 'notify-send');
  writeFileSync(script, `#!/bin/sh\nname=$(date +%s%N)-$$\nprintf '%s\\n' "$@" > '${calls}'/.$name\nmv '${calls}'/.$name '${calls}'/$name\n`);
  chmodSync(script, 0o755);
  const read = () => readdirSync(calls).filter((name) => !name.startsWith('.')).sort().map((name) => readFileSync(join(calls, name), 'utf8').split('\n')[0]);
  return { bin, titles: read };
}

describe('cronbeat serve stopped while a burst of popups is held', () => {
  it('shows the held summary as it stops, so no failure goes without a popup', async () => {
    const notify = fakeNotifySend();
    const dataDir = tempFolder();
    const apiToken = (await runCli(['token', 'create', '--data-dir', dataDir])).stdout.trim();
    serve = await startServe(['--data-dir', dataDir], { PATH: `${notify.bin}:${process.env.PATH}`, DISPLAY: ':99' });
    const tokens: string[] = [];
    for (let i = 1; i <= 12; i++) {
      const created = await fetch(`${serve.url}/api/monitors`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `job-${i}`, timezone: 'UTC', schedule: '0 3 * * *', duration: 30 }),
      });
      tokens.push(((await created.json()) as { token: string }).token);
    }
    await Promise.all(tokens.map((token) => fetch(`${serve!.url}/api/pulse/${token}/fail`, { method: 'POST', body: 'disk full' })));
    // The first three are shown at once; the other nine wait for the burst's group wait (5 s).
    while (notify.titles().length < 3) await sleep(50);
    expect(await serve.stop()).toBe(0);
    serve = undefined;

    const titles = notify.titles();
    expect(titles).toHaveLength(4);
    expect(titles.slice(0, 3).every((title) => /^✗ job-\d+ failed$/.test(title))).toBe(true);
    expect(titles[3]).toBe('Cronbeat: 9 alerts at once');
  });
});
