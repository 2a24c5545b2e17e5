import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli, startServe, tempFolder, type ServeProcess } from '../helpers/cli';
import { fakeTimeEnv, hasFakeTime } from '../helpers/fakeTime';
import { Receiver } from '../helpers/receiver';
import { startTestAgent } from '../helpers/testAgent';
import { apiRequest } from '../hardening/rawRequest';

/*
 * `cronbeat serve --watchdog-url`, CRONBEAT_WATCHDOG_URL and the dashboard's setting, with a real
 * serve process pinging a real local receiver. Serve's clock runs 20 times faster under libfaketime
 * (where installed), so its minute between pings takes 3 s; the loop's health rule itself is
 * tested over fake timers in test/engine/watchdog.test.ts.
 */
vi.setConfig({ testTimeout: 60_000 });
const SPEED = hasFakeTime ? 20 : 1;
const CHECK = '/ping/5f1c2b8e-0d4a-4e7f-9a3b-1c2d3e4f5a6b';


let receiver: Receiver;
let serve: ServeProcess | undefined;
let dataDir: string;
beforeAll(async () => {
  receiver = await new Receiver().start();
});
afterAll(() => receiver.stop());
afterEach(async () => {
  await serve?.stop();
  serve = undefined;
  receiver.requests.length = 0;
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts serve with `args` and `env` on a fresh data folder; resolves with a full key. */
async function startWith(args: string[], env: Record<string, string> = {}): Promise<string> {
  dataDir = tempFolder();
  const token = (await runCli(['token', 'create', '--data-dir', dataDir])).stdout.trim();
  const clock = hasFakeTime ? fakeTimeEnv(new Date().toISOString(), SPEED) : {};
  serve = await startServe(['--data-dir', dataDir, '--no-popups', ...args], { ...clock, ...env });
  return token;
}

describe('cronbeat serve --watchdog-url', () => {
  it('pings the URL after start and every minute with a plain GET; settings show it masked, and it is not the dashboard’s to change', async () => {
    const token = await startWith(['--watchdog-url', receiver.url + CHECK]);
    let stderr = '';
    serve!.child.stderr!.on('data', (chunk) => (stderr += chunk));
    await receiver.received(hasFakeTime ? 2 : 1); // 5 s after start, then a minute later
    for (const ping of receiver.requests) {
      expect(ping).toMatchObject({ method: 'GET', url: CHECK, body: '' });
      expect(ping.headers.authorization).toBeUndefined();
    }

    // The receiver's answer reaches the agent just after the receiver saw the ping: ask until it has.
    let settings = await apiRequest(serve!.url + '/api/settings', token);
    while (settings.json().watchdog_last_ping_at === null) settings = await apiRequest(serve!.url + '/api/settings', token);
    expect(settings.json()).toMatchObject({ watchdog_url: '********', watchdog_url_source: 'serve', watchdog_problem: null });
    expect(settings.json().watchdog_last_ping_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const patch = await apiRequest(serve!.url + '/api/settings', token, 'PATCH', { watchdog_url: null });
    expect(patch.status).toBe(409);
    expect(patch.json().message).toMatch(/set by `cronbeat serve --watchdog-url`/);

    await serve!.stop();
    serve = undefined;
    expect(stderr).toContain(`Watchdog: pinging 127.0.0.1:${receiver.port} every minute`);
    expect(stderr).not.toContain(CHECK);
  });

  it('takes the URL from CRONBEAT_WATCHDOG_URL', async () => {
    await startWith([], { CRONBEAT_WATCHDOG_URL: receiver.url + CHECK });
    await receiver.received(1);
    expect(receiver.requests[0].url).toBe(CHECK);
  });

  it('refuses a URL that is not http(s), naming the flag and not repeating the URL', async () => {
    dataDir = tempFolder();
    const result = await runCli(['serve', '--port', '0', '--data-dir', dataDir, '--watchdog-url', 'ftp://hc.example.com/secret-check-id']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('cronbeat: --watchdog-url must start with http:// or https://.\n');
  });
});

describe('the dashboard’s watchdog setting', () => {
  it('is set by PATCH /api/settings, read back masked, refused with a 422 naming the field, and pinged', async () => {
    dataDir = tempFolder();
    const agent = await startTestAgent({ dataDir });
    try {
      const bad = await agent.api('/api/settings', { method: 'PATCH', json: { watchdog_url: 'not a url' } });
      expect(bad.status).toBe(422);
      expect(JSON.stringify(await bad.json())).toContain('watchdog_url');
      expect(await (await agent.api('/api/settings')).json()).toMatchObject({ watchdog_url: null, watchdog_url_source: null });

      const set = await agent.api('/api/settings', { method: 'PATCH', json: { watchdog_url: receiver.url + CHECK } });
      expect(await set.json()).toMatchObject({ watchdog_url: '********', watchdog_url_source: 'dashboard' });
      expect(agent.store.settings.get('watchdog_url')).toBe(receiver.url + CHECK);
      // The agent's first ping is 5 s after its start, on the real clock here: it reads the URL then.
      await receiver.received(1);
      expect(receiver.requests[0]).toMatchObject({ method: 'GET', url: CHECK });

      await agent.api('/api/settings', { method: 'PATCH', json: { watchdog_url: null } });
      expect(await (await agent.api('/api/settings')).json()).toMatchObject({ watchdog_url: null, watchdog_url_source: null });
    } finally {
      await agent.stop();
    }
  });
});
