import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, tempFolder, type ServeProcess } from '../helpers/cli';
import { failMonitorsAtOnce, fakeNotifySend, serveWithPopups } from '../helpers/fakeNotifySend';

/*
 * A real popup on Linux read "nightly-backup failed / Job reported failure
 * (exit code 3)" under the app name "notify-send". Here a real `cronbeat serve` shows a popup
 * through node-notifier, which runs the fake notify-send first on PATH: it writes down the
 * arguments it was given.
 */
vi.setConfig({ testTimeout: 60_000 });

let serve: ServeProcess | undefined;
afterAll(async () => {
  await serve?.stop();
});

describe('the native popup (notify-send)', () => {
  it('comes from Cronbeat with its icon and says what the job said', async () => {
    const notify = fakeNotifySend();
    let apiToken: string;
    ({ serve, apiToken } = await serveWithPopups(notify));
    const created = await fetch(`${serve.url}/api/monitors`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiToken}`, 'Content-Type': 'application/json' },
      // Due twelve hours from now, whenever the suite runs: the run below is off schedule (no "was due").
      body: JSON.stringify({ name: 'nightly-backup', timezone: 'UTC', schedule: `0 ${(new Date().getUTCHours() + 12) % 24} * * *`, duration: 30 }),
    });
    const monitor = (await created.json()) as { token: string };

    const run = await runCli(['run', monitor.token, '--url', serve.url, '--', 'sh', '-c', 'echo disk full >&2; exit 3'], {
      env: { CRONBEAT_DATA_DIR: tempFolder() },
    });
    expect(run.status).toBe(3);
    // Bounded by the test's timeout: on a busy machine the popup's process may take seconds.
    while (notify.calls().length === 0) await sleep(50);

    const [call] = notify.calls();
    expect(call[0]).toBe('✗ nightly-backup failed (exit 3)');
    expect(call[1]).toMatch(/^disk full · \d+ (ms|s)$/); // run off schedule: no "was due"
    const flag = (name: string) => call[call.indexOf(name) + 1];
    expect(flag('--app-name')).toBe('Cronbeat');
    expect(flag('--icon')).toMatch(/main\/assets\/icons\/256x256\.png$/);
    expect(existsSync(flag('--icon'))).toBe(true);
  });

  it('30 monitors failing at once raise three popups and one summary of the other 27, not 30', async () => {
    const notify = fakeNotifySend();
    await serve?.stop();
    let apiToken: string;
    ({ serve, apiToken } = await serveWithPopups(notify));
    await failMonitorsAtOnce(serve, apiToken, 30);
    // The summary comes after the burst's group wait (5 s), and later on a busy machine: the
    // test's timeout is the bound (20 s was nearly reached under load).
    while (notify.calls().length < 4) await sleep(50);

    const titles = notify.calls().map((call) => call[0]);
    expect(titles).toHaveLength(4);
    for (const title of titles.slice(0, 3)) expect(title).toMatch(/^✗ job-\d+ failed$/);
    expect(titles[3]).toBe('Cronbeat: 27 alerts at once');
    expect(notify.calls()[3][1]).toMatch(/^(✗ job-\d+ failed · ){5}and 22 more$/);
  });
});
