import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startAgent } from '../../agent/agent';
import { DataFolderInUseError } from '../../agent/db/lock';
import { runCli, startServe, type ServeProcess } from '../helpers/cli';
import { startTestAgent, tempDir, type TestAgent } from '../helpers/testAgent';

/* One agent per data folder; a corrupt or newer database is refused in one line and left untouched. */

let running: Array<TestAgent | ServeProcess> = [];
afterEach(async () => {
  for (const r of running) await ('child' in r ? r.stop() : r.stop());
  running = [];
});

const stderrLines = (stderr: string) => stderr.split('\n').filter((line) => line.trim() !== '');

describe('one agent per data folder', () => {
  it('refuses a second agent in the same process, naming the holder, and frees the folder on close', async () => {
    const first = await startTestAgent();
    running.push(first);
    const second = startAgent({ dataDir: first.dataDir, port: 0, log: () => {} });
    await expect(second).rejects.toBeInstanceOf(DataFolderInUseError);
    await expect(second).rejects.toMatchObject({ pid: process.pid });
    expect((await first.api('/api/monitors')).status).toBe(200); // the first is untouched

    await first.close();
    running = [];
    const third = await startAgent({ dataDir: first.dataDir, port: 0, log: () => {} });
    await third.close();
  });

  it('a second `cronbeat serve` on the folder says in one line which process holds it, and exits non-zero', async () => {
    const dir = tempDir();
    const first = await startServe(['--data-dir', dir]);
    running.push(first);
    const second = await runCli(['serve', '--port', '0', '--data-dir', dir]);
    expect(second.status).not.toBe(0);
    expect(stderrLines(second.stderr)).toEqual([
      `cronbeat: The data folder ${dir} is in use by another Cronbeat agent (process ${first.child.pid}); stop it first or use another --data-dir.`,
    ]);
    expect(second.stdout).toBe('');
    expect((await fetch(`${first.url}/api/monitors`)).status).toBe(401); // still serving
  });

  it('takes over the lock of an agent that was killed', async () => {
    const dir = tempDir();
    const killed = await startServe(['--data-dir', dir]);
    await killed.stop('SIGKILL');
    expect(readFileSync(join(dir, 'cronbeat.pid'), 'utf8').trim()).toBe(String(killed.child.pid)); // left behind
    const next = await startServe(['--data-dir', dir]);
    running.push(next);
    expect((await fetch(`${next.url}/api/monitors`)).status).toBe(401);
    expect(readFileSync(join(dir, 'cronbeat.pid'), 'utf8').trim()).toBe(String(next.child.pid));
  });
});

describe('a database Cronbeat cannot use', () => {
  async function expectRefused(dir: string, message: RegExp) {
    const file = join(dir, 'cronbeat.db');
    const before = readFileSync(file);
    const result = await runCli(['serve', '--port', '0', '--data-dir', dir]);
    expect(result.status).toBe(1);
    const lines = stderrLines(result.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(lines[0]).not.toMatch(/\bat .*\.(c?js|ts):\d+/); // no stack
    expect(readFileSync(file).equals(before)).toBe(true);
    // The folder is free again for a fixed database.
    return result;
  }

  it('refuses a file that is not SQLite', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'cronbeat.db'), 'this is not a database, but it is 100 bytes long '.repeat(100));
    await expectRefused(dir, /^cronbeat: .*cronbeat\.db is not a readable Cronbeat database \(SQLITE_NOTADB\); it was left untouched\. If it held your monitors, bring back your latest backup with `cronbeat restore FILE`\.$/);
  });

  it('refuses a database written by a newer Cronbeat', async () => {
    const dir = tempDir();
    const db = new Database(join(dir, 'cronbeat.db'));
    db.exec('CREATE TABLE future (x)');
    db.pragma('user_version = 999');
    db.close();
    await expectRefused(dir, /^cronbeat: The database was written by a newer Cronbeat \(schema 999, this one knows \d+\); it was left untouched\.$/);
    // Refusing freed the folder: a fresh database elsewhere is not the point, but the lock is.
    const again = await runCli(['serve', '--port', '0', '--data-dir', dir]);
    expect(again.stderr).not.toMatch(/in use/);
  });
});
