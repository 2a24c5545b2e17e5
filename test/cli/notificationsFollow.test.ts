import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgent } from '../../agent/agent';
import { runCli, spawnCli, startServe, tempFolder, type ServeProcess } from '../helpers/cli';
import { fakeTimeEnv, hasFakeTime } from '../helpers/fakeTime';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * `cronbeat notifications --follow` as a user runs it: a real agent, a real follower process,
 * pulses that fail and recover monitors; the agent killed (SIGKILL) and restarted on the same data
 * folder and port. Every notification is printed exactly once. The follower is the subject: where
 * the agent's process is not (no kill, no restart), the agent runs in this process, the same HTTP
 * for a fraction of the CPU of a `cronbeat serve`.
 */

let cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  cleanups = [];
});

/** A running follower: its stdout and stderr lines as they come, and a way to wait for some. */
interface Follower {
  child: ChildProcess;
  out: string[];
  err: string[];
  waitFor(what: () => boolean, label: string, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

function follow(args: string[], env: Record<string, string | undefined>): Follower {
  const child = spawnCli(['notifications', '--follow', ...args], { env });
  const out: string[] = [];
  const err: string[] = [];
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  createInterface({ input: child.stdout! }).on('line', (line) => (out.push(line), changed()));
  createInterface({ input: child.stderr! }).on('line', (line) => (err.push(line), changed()));
  // 'close', not 'exit': only then are both pipes read to their end (a test reads err after exited).
  const exited = new Promise<number | null>((done) => child.once('close', (code) => (changed(), done(code))));
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  const waitFor = (what: () => boolean, label: string, timeoutMs = 40_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!what()) return;
        listeners.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`timed out waiting for ${label}\nstdout:\n${out.join('\n')}\nstderr:\n${err.join('\n')}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  return { child, out, err, waitFor, exited };
}

async function serve(dataDir: string, port = 0): Promise<ServeProcess> {
  const agent = await startServe(['--data-dir', dataDir, '--no-popups', '--port', String(port)]);
  cleanups.push(() => agent.stop());
  return agent;
}

/** An agent in this process, for the tests whose agent is never killed. */
async function liveAgent(): Promise<TestAgent> {
  const agent = await startTestAgent();
  cleanups.push(() => agent.stop());
  return agent;
}

async function createMonitor(url: string, token: string, name: string): Promise<{ id: number; token: string }> {
  const response = await fetch(`${url}/api/monitors`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, schedule: '0 3 * * *', timezone: 'UTC', duration: 5 }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; token: string };
}

/** A pulse that fails (or recovers) a monitor: each makes one notification. */
async function pulse(url: string, monitorToken: string, outcome: 'fail' | 'ok'): Promise<void> {
  const response = await fetch(`${url}/api/pulse/${monitorToken}${outcome === 'fail' ? '/fail' : ''}`, { method: 'POST' });
  expect(response.status, await response.text()).toBe(200);
}

/** Every notification of the agent, oldest first. */
async function allNotifications(url: string, token: string): Promise<Array<{ id: string; data: { title: string } }>> {
  const response = await fetch(`${url}/api/notifications?kinds=all&per_page=100`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await response.json()) as { data: Array<{ id: string; data: { title: string } }> }).data.reverse();
}

const portOf = (url: string) => Number(new URL(url).port);

describe('cronbeat notifications --follow', () => {
  it('prints every notification exactly once across an agent killed and restarted on the same folder and port', async () => {
    const dataDir = tempFolder();
    const token = (await runCli(['token', 'create', '--name', 'follower', '--data-dir', dataDir])).stdout.trim();
    let agent = await serve(dataDir);
    const url = agent.url;
    const monitors = [];
    for (const name of ['backup', 'db-dump', 'certbot', 'rsync', 'logrotate']) monitors.push(await createMonitor(url, token, name));

    const follower = follow(['--url', url, '--json'], { CRONBEAT_API_TOKEN: token });
    await follower.waitFor(() => follower.err.some((line) => line.includes(`following ${url}`)), 'the follower to connect');

    await pulse(url, monitors[0].token, 'fail');
    await follower.waitFor(() => follower.out.length === 1, 'the first failure');

    // The agent dies; while the follower cannot see it, monitors fail and recover (another agent
    // process on the same folder, on a port the follower does not know).
    await agent.stop('SIGKILL');
    const meanwhile = await startAgent({ dataDir, port: 0, log: () => {} });
    await pulse(meanwhile.url, monitors[0].token, 'ok');
    for (const monitor of monitors.slice(1)) await pulse(meanwhile.url, monitor.token, 'fail');
    await meanwhile.close();
    expect(follower.out).toHaveLength(1);

    agent = await serve(dataDir, portOf(url));
    await follower.waitFor(() => follower.out.length >= 6, 'the five missed notifications');
    await pulse(url, monitors[1].token, 'ok'); // and one live again
    await follower.waitFor(() => follower.out.length >= 7, 'the live notification after the catch-up');

    const printed = follower.out.map((line) => JSON.parse(line) as { id: string });
    const expected = await allNotifications(url, token);
    expect(expected).toHaveLength(7);
    expect(printed.map((n) => n.id)).toEqual(expected.map((n) => n.id));
    expect(follower.err.filter((line) => line.includes('following'))).toHaveLength(2);
    // One line for the loss, not one for every attempt to reconnect.
    expect(follower.err.filter((line) => line.includes('reconnecting'))).toHaveLength(1);
  }, 120_000);

  it('prints one readable line per notification without --json', async () => {
    const agent = await liveAgent();
    const token = agent.token;
    const monitor = await createMonitor(agent.url, token, 'nightly backup');
    const follower = follow(['--url', agent.url], { CRONBEAT_API_TOKEN: token });
    await follower.waitFor(() => follower.err.some((line) => line.includes('following')), 'the follower to connect');
    await pulse(agent.url, monitor.token, 'fail');
    await follower.waitFor(() => follower.out.length === 1, 'the failure');
    expect(follower.out[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC {2}.*nightly backup.*/);
  }, 90_000);

  it('with --popups on a machine without a notification service, says so once and keeps printing', async () => {
    const agent = await liveAgent();
    const token = agent.token;
    const monitor = await createMonitor(agent.url, token, 'nightly backup');
    // A desktop (DISPLAY) but an empty PATH: no notify-send to raise popups with.
    const follower = follow(['--url', agent.url, '--popups'], { CRONBEAT_API_TOKEN: token, PATH: tempFolder(), DISPLAY: ':99' });
    await follower.waitFor(() => follower.err.some((line) => line.includes('following')), 'the follower to connect');
    await pulse(agent.url, monitor.token, 'fail');
    await pulse(agent.url, monitor.token, 'ok');
    await follower.waitFor(() => follower.out.length === 2, 'both notifications');
    await follower.waitFor(() => follower.err.some((line) => /popups are unavailable/i.test(line)), 'the note about popups');
    expect(follower.err.filter((line) => /popups are unavailable/i.test(line))).toHaveLength(1);
  }, 60_000);

  it('with --popups where there is no desktop, says once that popups are off, tries none and keeps printing', async () => {
    const agent = await liveAgent();
    const token = agent.token;
    const monitor = await createMonitor(agent.url, token, 'nightly backup');
    // No DISPLAY nor WAYLAND_DISPLAY, and no notify-send on PATH: a try would say popups are unavailable.
    const follower = follow(['--url', agent.url, '--popups'], { CRONBEAT_API_TOKEN: token, PATH: tempFolder(), DISPLAY: '', WAYLAND_DISPLAY: '' });
    await follower.waitFor(() => follower.err.some((line) => line.includes('following')), 'the follower to connect');
    await pulse(agent.url, monitor.token, 'fail');
    await pulse(agent.url, monitor.token, 'ok');
    await follower.waitFor(() => follower.out.length === 2, 'both notifications');
    expect(follower.err.filter((line) => line.includes('No desktop here'))).toEqual([
      'cronbeat: No desktop here (DISPLAY and WAYLAND_DISPLAY are unset): --popups is off; the notifications are printed.',
    ]);
    expect(follower.err.filter((line) => /popups are unavailable/i.test(line))).toEqual([]);
  }, 60_000);

  it('refuses a wrong key in one clear line and exits 1', async () => {
    const agent = await liveAgent();
    const follower = follow(['--url', agent.url, '--token', 'cb_wrong'], {});
    expect(await follower.exited).toBe(1);
    expect(follower.err.join('\n')).toMatch(/refused the key \(401 .*\): check CRONBEAT_API_TOKEN or --token/);
    expect(follower.out).toEqual([]);
  });

  it('refuses a ping-scope or badge-scope key with a message saying which key to use (never calling a badge key a ping key), and exits 1', async () => {
    const agent = await liveAgent();
    const keyOf = (scope: 'ping' | 'badge') => agent.store.apiTokens.create({ companyId: 1, name: scope, scope, now: Date.now() }).token;
    const keys = { ping: keyOf('ping'), badge: keyOf('badge') };
    for (const [scope, key] of Object.entries(keys)) {
      const follower = follow(['--url', agent.url], { CRONBEAT_API_TOKEN: key });
      expect(await follower.exited).toBe(1);
      const said = follower.err.join('\n');
      expect(said).toMatch(new RegExp(`This key may not read notifications \\(403 A ${scope} key may only .*\\)\\. Use a read-only or full key \\(cronbeat token create --scope read-only\\)\\.`));
      expect(said).not.toMatch(scope === 'badge' ? /ping key/ : /badge key/);
      expect(follower.out).toEqual([]);
    }
  }, 60_000);

  it('follows with a read-only key', async () => {
    const agent = await liveAgent();
    const fullKey = agent.token;
    const readKey = agent.store.apiTokens.create({ companyId: 1, name: 'reader', scope: 'read-only', now: Date.now() }).token;
    const monitor = await createMonitor(agent.url, fullKey, 'nightly backup');
    const follower = follow(['--url', agent.url, '--json'], { CRONBEAT_API_TOKEN: readKey });
    await follower.waitFor(() => follower.err.some((line) => line.includes('following')), 'the follower to connect');
    await pulse(agent.url, monitor.token, 'fail');
    await follower.waitFor(() => follower.out.length === 1, 'the failure');
    expect(JSON.parse(follower.out[0])).toMatchObject({ data: { title: 'nightly backup failed' } });
  }, 60_000);

  it('never prints the password of a URL that carries one (an agent behind a proxy with basic auth)', async () => {
    const agent = await liveAgent();
    const token = agent.token;
    const withPassword = agent.url.replace('http://', 'http://admin:hunter2@');
    const following = follow(['--url', withPassword], { CRONBEAT_API_TOKEN: token });
    await following.waitFor(() => following.err.some((line) => line.includes('following')), 'the follower to connect');
    expect(following.err).toContain(`cronbeat: following ${agent.url.replace('http://', 'http://admin:***@')}`);
    const refused = follow(['--url', withPassword, '--token', 'cb_wrong'], {});
    expect(await refused.exited).toBe(1);
    expect(refused.err.join('\n')).toContain(`${agent.url.replace('http://', 'http://admin:***@')} refused the key (401`);
    for (const line of [...following.err, ...refused.err]) expect(line).not.toContain('hunter2');
  }, 60_000);

  it('asks for a key when none is given', async () => {
    const result = await runCli(['notifications', '--follow', '--url', 'http://127.0.0.1:9']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/An API key is needed: --token or CRONBEAT_API_TOKEN/);
  });

  it.skipIf(!hasFakeTime)('says once that the agent is unreachable after a minute, and once that it is back', async () => {
    const agent = await liveAgent();
    // The follower's clock runs 10 times faster: its minute passes in 6 s.
    const follower = follow(['--url', agent.url], { CRONBEAT_API_TOKEN: agent.token, ...fakeTimeEnv(new Date().toISOString(), 10) });
    await follower.waitFor(() => follower.err.some((line) => line.includes('following')), 'the follower to connect');
    await agent.close();
    await follower.waitFor(() => follower.err.some((line) => /unreachable since \d\d:\d\d/.test(line)), 'the unreachable notice');
    const back = await startAgent({ dataDir: agent.dataDir, port: agent.port, log: () => {} });
    cleanups.push(() => back.close());
    await follower.waitFor(() => follower.err.some((line) => line.includes('is back')), 'the back notice');
    const unreachable = follower.err.filter((line) => line.includes('unreachable since'));
    expect(unreachable).toHaveLength(1);
    expect(unreachable[0]).toMatch(/^cronbeat: Cronbeat on 127\.0\.0\.1 unreachable since \d\d:\d\d$/);
    expect(follower.err.filter((line) => line.includes('is back'))).toHaveLength(1);
  }, 90_000);
});
