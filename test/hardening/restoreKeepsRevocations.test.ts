import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startAgent, type RunningAgent } from '../../agent/agent';
import { runCli, tempFolder } from '../helpers/cli';
import { createSignInLink } from '../helpers/signIn';

/*
 * A key is revoked, or a monitor's pulse token rotated, because it leaked. Restoring a backup
 * taken before that (after a damaged disk, say) must not arm the leaked secret again without a word.
 */
vi.setConfig({ testTimeout: 60_000 });

// The agent on the folder runs in this process: restore, backup and token are the commands
// tested, and the agent reads their database with the same code as `cronbeat serve`.
let serving: RunningAgent | undefined;
afterEach(async () => {
  await serving?.close();
  serving = undefined;
});
const serve = (dataDir: string) => startAgent({ dataDir, port: 0, log: () => {} });

const api = (url: string, token: string, path: string, method = 'GET', json?: unknown) =>
  fetch(`${url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });

describe('restore and the secrets undone since the backup', () => {
  it('keeps a key revoked and a rotated pulse token retired, says so, and leaves the rest of the backup as it was', async () => {
    const dir = tempFolder();
    const backup = join(tempFolder(), 'before-the-leak.db');
    const admin = (await runCli(['token', 'create', '--name', 'admin', '--data-dir', dir])).stdout.trim();
    const leaked = (await runCli(['token', 'create', '--name', 'leaked', '--scope', 'read-only', '--data-dir', dir])).stdout.trim();
    serving = await serve(dir);
    const monitor = await (await api(serving.url, admin, '/api/monitors', 'POST', { name: 'nightly', timezone: 'UTC', schedule: '0 3 * * *', duration: 30 })).json();
    expect((await runCli(['backup', '--out', backup, '--data-dir', dir])).status).toBe(0);

    // The leak is undone: the key revoked, the pulse URL given a new token.
    expect((await runCli(['token', 'revoke', '2', '--data-dir', dir])).stdout).toBe('Token 2 revoked.\n');
    const rotated = await (await api(serving.url, admin, `/api/monitors/${monitor.id}/token`, 'POST', {})).json();
    expect(rotated.token).not.toBe(monitor.token);
    await serving.close();
    serving = undefined;

    const restored = await runCli(['restore', backup, '--data-dir', dir]);
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);
    expect(restored.stdout).toMatch(/1 key revoked since the backup stays revoked/);
    expect(restored.stdout).toMatch(/1 monitor keeps the pulse token it was given since/);

    serving = await serve(dir);
    expect((await api(serving.url, leaked, '/api/monitors')).status).toBe(401);
    expect((await fetch(`${serving.url}/api/pulse/${monitor.token}`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${serving.url}/api/pulse/${rotated.token}`, { method: 'POST' })).status).toBe(200);
    expect((await api(serving.url, admin, '/api/monitors')).status).toBe(200);
    const listed = await runCli(['token', 'list', '--json', '--data-dir', dir]);
    expect(JSON.parse(listed.stdout).map((t: { name: string; revoked_at: string | null }) => [t.name, t.revoked_at !== null])).toEqual([
      ['admin', false],
      ['leaked', true],
    ]);
  });

  it('names the monitors and keys made since the backup, which it does not have, and where they are kept', async () => {
    const dir = tempFolder();
    const backup = join(tempFolder(), 'old.db');
    const admin = (await runCli(['token', 'create', '--name', 'admin', '--data-dir', dir])).stdout.trim();
    serving = await serve(dir);
    const create = (name: string) => api(serving!.url, admin, '/api/monitors', 'POST', { name, timezone: 'UTC', schedule: '0 3 * * *', duration: 30 });
    await create('in the backup');
    expect((await runCli(['backup', '--out', backup, '--data-dir', dir])).status).toBe(0);
    await create('nightly');
    await create('weekly');
    await runCli(['token', 'create', '--name', 'laptop', '--data-dir', dir]);
    await serving.close();
    serving = undefined;

    const restored = await runCli(['restore', backup, '--data-dir', dir]);
    expect(restored.status).toBe(0);
    const keptAs = /kept as (\S+)\.\n/.exec(restored.stdout)![1];
    expect(restored.stdout).toContain(
      `Not in the backup, so only in ${keptAs}: 2 monitors made since ("nightly", "weekly"); 1 key made since ("laptop", id 2).`,
    );
  });

  it('keeps a sign-in link used since the backup used: a link read in a log does not sign in twice', async () => {
    const dir = tempFolder();
    const backup = join(tempFolder(), 'b.db');
    serving = await serve(dir);
    const code = /code=([\w-]+)/.exec(createSignInLink(serving.store, serving.url, Date.now()))![1]!;
    expect((await runCli(['backup', '--out', backup, '--data-dir', dir])).status).toBe(0);
    const trade = () => fetch(`${serving!.url}/api/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });
    expect((await trade()).status).toBe(201);
    await serving.close();
    serving = undefined;

    expect((await runCli(['restore', backup, '--data-dir', dir])).status).toBe(0);
    serving = await serve(dir);
    expect((await trade()).status).toBe(422);
  });

  it('restores a backup over a damaged database, saying nothing could be carried over from it', async () => {
    const dir = tempFolder();
    const backup = join(tempFolder(), 'b.db');
    await runCli(['token', 'create', '--data-dir', dir]);
    expect((await runCli(['backup', '--out', backup, '--data-dir', dir])).status).toBe(0);
    writeFileSync(join(dir, 'cronbeat.db'), 'not a database at all '.repeat(300));
    const restored = await runCli(['restore', backup, '--data-dir', dir]);
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);
    expect(restored.stdout).toMatch(/could not be read \(SQLITE_NOTADB\): keys revoked and pulse tokens rotated since the backup, if any, are live again/);
  });
});
