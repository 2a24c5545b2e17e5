import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, startServe, type ServeProcess } from '../helpers/cli';
import { fakeTimeEnv, hasFakeTime } from '../helpers/fakeTime';
import { tempDir } from '../helpers/testAgent';
import { apiRequest } from '../hardening/rawRequest';
import { NotificationFollower } from '../../agent/client/follow/follower';
import type { FollowedNotification } from '../../agent/client/follow/notificationCursor';

// A real `cronbeat serve` whose clock runs a day ahead (a wrong date at boot), then is set back
// while it runs, as NTP does: libfaketime reads the offset from a file at every call, and only the
// wall clock moves (timers keep their monotonic clock, as on a real machine).
vi.setConfig({ testTimeout: 60_000 });
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

let serve: ServeProcess | undefined;
let follower: NotificationFollower | undefined;
const dataDir = tempDir();
afterAll(async () => {
  follower?.stop();
  await serve?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Polls `read` until `done` holds of it (a bound, not a deadline: it ends when the agent got there). */
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let tries = 0; !done(value) && tries < 100; tries++) {
    await sleep(100);
    value = await read();
  }
  return value;
}

/** libfaketime's offset from the real clock that puts the wall clock at `iso` now. */
const offsetTo = (iso: string) => `${Math.round((Date.parse(iso) - Date.now()) / 1000)}`.replace(/^(\d)/, '+$1');

describe.skipIf(!hasFakeTime)('an agent whose clock is set back by a day while it runs', () => {
  it('brings back what it recorded "tomorrow": the next run is awaited today, and a failure counts', async () => {
    const token = (await runCli(['token', 'create', '--data-dir', dataDir])).stdout.trim();
    const clockFile = join(dataDir, 'faketime');
    writeFileSync(clockFile, offsetTo('2026-11-22T10:00:30Z'));
    const env = { LD_PRELOAD: fakeTimeEnv('2026-11-22T10:00:30Z').LD_PRELOAD, FAKETIME_TIMESTAMP_FILE: clockFile, FAKETIME_NO_CACHE: '1', DONT_FAKE_MONOTONIC: '1', TZ: 'UTC' };
    serve = await startServe(['--data-dir', dataDir, '--no-popups'], env);
    const api = async (path: string, method?: string, body?: unknown) => JSON.parse((await apiRequest(serve!.url + path, token, method, body)).text);

    // The desktop app's follower on another machine, whose clock is right: it shows each notification once.
    const shown: FollowedNotification[] = [];
    let connected = false;
    follower = new NotificationFollower({ baseUrl: serve.url, token, onNotifications: (list) => shown.push(...list), onConnection: (up) => (connected = up) });
    void follower.run();
    await until(() => connected, Boolean);

    const monitor = await api('/api/monitors', 'POST', { name: 'hourly', timezone: 'UTC', schedule: '0 * * * *', duration: 5 });
    // While ahead: a failure and its recovery, which the follower shows (stamped "tomorrow").
    expect((await fetch(`${serve.url}/api/pulse/${monitor.token}/fail`)).status).toBe(200);
    expect((await fetch(`${serve.url}/api/pulse/${monitor.token}`)).status).toBe(200);
    expect((await api(`/api/monitors/${monitor.id}`)).next_due_at).toBe('2026-11-22T11:05:00.000000Z');
    await until(() => shown.length, (count) => count >= 2);
    expect(shown.map((n) => n.data.title)).toEqual(['hourly failed', 'hourly recovered']);
    shown.length = 0;

    writeFileSync(clockFile, offsetTo('2026-11-21T10:00:30Z'));
    let seen = await api(`/api/monitors/${monitor.id}`);
    for (let tries = 0; seen.next_due_at !== '2026-11-21T11:05:00.000000Z' && tries < 100; tries++) {
      await sleep(100);
      seen = await api(`/api/monitors/${monitor.id}`);
    }
    expect(seen.next_due_at).toBe('2026-11-21T11:05:00.000000Z');
    expect(seen.last_run_at.slice(0, 10)).toBe('2026-11-21');

    expect((await fetch(`${serve.url}/api/pulse/${monitor.token}/fail`)).status).toBe(200);
    expect(await api(`/api/monitors/${monitor.id}`)).toMatchObject({ status: 'failed', is_alerted: 1 });
    // Made after the clock went back, stamped before "tomorrow"'s: the follower still shows it.
    await until(() => shown.length, (count) => count > 0);
    expect(shown.map((n) => [n.data.title, n.created_at.slice(0, 10)])).toEqual([['hourly failed', '2026-11-21']]);
  });
});
