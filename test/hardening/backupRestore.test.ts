import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgent } from '../../agent/agent';
import { runCli, startServe, type ServeProcess } from '../helpers/cli';
import { runCli as runCliAsync } from '../helpers/cli';
import { tempDir } from '../helpers/testAgent';

/* `cronbeat backup` while the agent runs, `cronbeat restore` while it is stopped, as real processes. */

let serving: ServeProcess | undefined;
let closing: (() => Promise<void>) | undefined;
afterEach(async () => {
  await serving?.stop();
  serving = undefined;
  await closing?.();
  closing = undefined;
});

function api(url: string, token: string, path: string, init: { method?: string; json?: unknown } = {}) {
  return fetch(`${url}${path}`, {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
}

const oneLine = (stderr: string) => stderr.split('\n').filter((line) => line.trim() !== '');

describe('backup and restore', () => {
  it('round-trips: a backup taken under load restores exactly what was there, the token included', async () => {
    const dir = tempDir();
    const backup = join(tempDir(), 'nightly.db');
    const token = (await runCli(['token', 'create', '--data-dir', dir])).stdout.trim();
    serving = await startServe(['--data-dir', dir]);
    const { url } = serving;
    const server = await (await api(url, token, '/api/servers', { method: 'POST', json: { name: 'web', ip_address: '10.0.0.1', identifier: 'web-1' } })).json();
    const monitor = await (await api(url, token, '/api/monitors', { method: 'POST', json: { name: 'nightly', timezone: 'UTC', schedule: '0 3 * * *', duration: 30 } })).json();

    // Pulses keep arriving while the backup runs.
    let pulsing = true;
    const load = (async () => {
      while (pulsing) await fetch(`${url}/api/pulse/${monitor.token}`, { method: 'POST', body: 'ok' });
    })();
    const made = await runCliAsync(['backup', '--out', backup, '--data-dir', dir]);
    pulsing = false;
    await load;
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    expect(made.stdout).toMatch(/^Backed up .*cronbeat\.db to .*nightly\.db \(schema \d+, \d+ bytes\)\.\n$/);
    if (process.platform !== 'win32') expect((statSync(backup).mode & 0o777).toString(8)).toBe('600');
    expect(readdirSync(join(backup, '..'))).toEqual(['nightly.db']); // one self-contained file, nothing half-written beside it

    const atBackup = {
      monitors: await (await api(url, token, '/api/monitors')).json(),
      servers: await (await api(url, token, '/api/servers')).json(),
      pulses: (await (await api(url, token, `/api/monitors/${monitor.id}/pulses?per_page=1`)).json()).total,
    };
    const inBackup = new Database(backup, { readonly: true });
    const pulsesInBackup = inBackup.prepare('SELECT count(*) FROM pulses').pluck().get() as number;
    inBackup.close();
    expect(pulsesInBackup).toBeGreaterThan(0);
    expect(pulsesInBackup).toBeLessThanOrEqual(atBackup.pulses);

    // Restoring is refused while the agent holds the folder, and changes nothing.
    const refused = await runCli(['restore', backup, '--data-dir', dir]);
    expect(refused.status).toBe(1);
    expect(oneLine(refused.stderr)).toEqual([expect.stringMatching(new RegExp(`^cronbeat: The data folder .* is in use by another Cronbeat agent \\(process ${serving.child.pid}\\)`))]);

    // Changes after the backup...
    expect((await api(url, token, `/api/servers/${server.id}`, { method: 'DELETE' })).status).toBe(204);
    await api(url, token, '/api/monitors', { method: 'POST', json: { name: 'after backup', timezone: 'UTC', schedule: '* * * * *', duration: 5 } });
    await serving.stop();
    serving = undefined;

    // ...are undone by the restore; the replaced database is kept.
    const restored = await runCli(['restore', backup, '--data-dir', dir]);
    expect(restored.stderr).toBe('');
    expect(restored.status).toBe(0);
    expect(restored.stdout).toMatch(/^Restored .* The database it replaced is kept as .*cronbeat\.db\.before-restore-/);
    expect(readdirSync(dir).some((name) => name.startsWith('cronbeat.db.before-restore-'))).toBe(true);

    // Any agent reads the restored folder; one in this process costs a fraction of a second `serve`.
    const reading = await startAgent({ dataDir: dir, port: 0, log: () => {} });
    closing = () => reading.close();
    const back = reading.url;
    const servers = await (await api(back, token, '/api/servers')).json();
    expect(servers).toEqual(atBackup.servers);
    const monitors = await (await api(back, token, '/api/monitors')).json();
    expect(monitors.map((m: { id: number; name: string; token: string }) => [m.id, m.name, m.token])).toEqual(
      atBackup.monitors.map((m: { id: number; name: string; token: string }) => [m.id, m.name, m.token]),
    );
    expect((await (await api(back, token, `/api/monitors/${monitor.id}/pulses?per_page=1`)).json()).total).toBe(pulsesInBackup);
  });

  it.each([
    ['a file that is not a database', (file: string) => writeFileSync(file, 'not sqlite '.repeat(500)), /is not a readable Cronbeat database/],
    ['a SQLite file of something else', (file: string) => new Database(file).exec('CREATE TABLE photos (x); PRAGMA user_version = 1').close(), /is a SQLite file but not a Cronbeat database/],
    ['a missing file', () => {}, /does not exist or is not a file/],
  ])('refuses to restore %s, leaving the database as it was', async (_label, make, message) => {
    const dir = tempDir();
    await runCli(['token', 'create', '--data-dir', dir]);
    const before = readFileSync(join(dir, 'cronbeat.db'));
    const file = join(tempDir(), 'candidate.db');
    make(file);
    const result = await runCli(['restore', file, '--data-dir', dir]);
    expect(result.status).toBe(1);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(message)]);
    expect(readFileSync(join(dir, 'cronbeat.db')).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((name) => name.includes('restore') || name.includes('partial'))).toEqual([]);
  });

  it('restores a backup a tool was cut short writing into (a hot journal beside it) as it was before that change', async () => {
    const dir = tempDir();
    const backup = join(tempDir(), 'b.db');
    await runCli(['token', 'create', '--name', 'kept', '--data-dir', dir]);
    expect((await runCli(['backup', '--out', backup, '--data-dir', dir])).status).toBe(0);
    // A change that spills pages into the file before it commits, copied as a crash would leave it.
    const cut = join(tempDir(), 'cut.db');
    const writer = new Database(backup);
    writer.pragma('cache_size = 2');
    writer.exec('BEGIN; CREATE TABLE junk (x); UPDATE api_tokens SET name = \'half done\'');
    const insert = writer.prepare('INSERT INTO junk VALUES (randomblob(500))');
    for (let i = 0; i < 3000; i++) insert.run();
    copyFileSync(backup, cut);
    copyFileSync(`${backup}-journal`, `${cut}-journal`);
    writer.exec('ROLLBACK');
    writer.close();

    const result = await runCli(['restore', cut, '--data-dir', dir]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const listed = await runCli(['token', 'list', '--json', '--data-dir', dir]);
    expect(JSON.parse(listed.stdout).map((t: { name: string }) => t.name)).toEqual(['kept']);
  });

  it('refuses a live database with its -wal, also when named through a symlink, and leaves the database as it was', async () => {
    const live = tempDir();
    const token = (await runCli(['token', 'create', '--data-dir', live])).stdout.trim();
    const agent = await startServe(['--data-dir', live]);
    const made = await api(agent.url, token, '/api/monitors', { method: 'POST', json: { name: 'only in the log', timezone: 'UTC', schedule: '0 3 * * *', duration: 5 } });
    expect(made.status).toBe(201);
    await agent.stop('SIGKILL'); // its last change only in cronbeat.db-wal
    const link = join(tempDir(), 'latest.db');
    symlinkSync(join(live, 'cronbeat.db'), link);

    const dir = tempDir();
    await runCli(['token', 'create', '--data-dir', dir]);
    const before = readFileSync(join(dir, 'cronbeat.db'));
    for (const file of [join(live, 'cronbeat.db'), link]) {
      const result = await runCli(['restore', file, '--data-dir', dir]);
      expect(result.status).toBe(1);
      expect(oneLine(result.stderr)).toEqual([`cronbeat: ${file} has a -wal file beside it: it is a live database, not a backup. Make one with \`cronbeat backup\`.`]);
    }
    expect(readFileSync(join(dir, 'cronbeat.db')).equals(before)).toBe(true);
  });

  it('refuses a backup from a newer Cronbeat', async () => {
    const dir = tempDir();
    const backup = join(tempDir(), 'b.db');
    await runCli(['token', 'create', '--data-dir', dir]);
    expect((await runCli(['backup', '--out', backup, '--data-dir', dir])).status).toBe(0);
    const db = new Database(backup);
    db.pragma('user_version = 999');
    db.close();
    const result = await runCli(['restore', backup, '--data-dir', dir]);
    expect(result.status).toBe(1);
    expect(oneLine(result.stderr)).toEqual([expect.stringMatching(/was written by a newer Cronbeat \(schema 999/)]);
  });

  it('says in one line when there is nothing to back up or no --out', async () => {
    const empty = await runCli(['backup', '--out', join(tempDir(), 'x.db'), '--data-dir', join(tempDir(), 'nothing')]);
    expect(empty.status).toBe(1);
    expect(oneLine(empty.stderr)).toEqual([expect.stringMatching(/^cronbeat: There is no Cronbeat database at /)]);
    const usage = await runCli(['backup']);
    expect(usage.status).toBe(2);
    expect(oneLine(usage.stderr)).toEqual(['cronbeat: Say where to write the backup: `cronbeat backup --out FILE`.']);
    expect(existsSync(join(tempDir(), 'x.db'))).toBe(false);
  });

  it('never replaces what is not a file: --out a device or a pipe (as /dev/null) is refused, and it stays as it was', async () => {
    const dir = tempDir();
    await runCli(['token', 'create', '--data-dir', dir]);
    const pipe = join(tempDir(), 'pipe');
    execFileSync('mkfifo', [pipe]);
    const result = await runCli(['backup', '--out', pipe, '--data-dir', dir]);
    expect(result.status).toBe(1);
    expect(oneLine(result.stderr)).toEqual([`cronbeat: --out ${pipe} is not a file (a pipe or a device, such as /dev/null), which the backup would replace: give a file to write.`]);
    expect(lstatSync(pipe).isFIFO()).toBe(true);
    expect(readdirSync(join(pipe, '..'))).toEqual(['pipe']);
  });

  it('says in one line that --out is a folder, and leaves nothing in it', async () => {
    const dir = tempDir();
    await runCli(['token', 'create', '--data-dir', dir]);
    const folder = tempDir();
    const result = await runCli(['backup', '--out', folder, '--data-dir', dir]);
    expect(result.status).toBe(1);
    expect(oneLine(result.stderr)).toEqual([`cronbeat: --out ${folder} is a folder: give the file to write, such as ${join(folder, 'cronbeat.db')}.`]);
    expect(readdirSync(folder)).toEqual([]);
  });
});
