import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runCli, startServe, tempFolder } from '../helpers/cli';
import { mountSmallDisk, unmountSmallDisk } from '../helpers/smallDisk';

/*
 * A disk with errors is remounted read-only by the kernel, often with the agent's last changes
 * still in the write-ahead log: that is when a backup is most wanted. SQLite cannot open a
 * database in WAL mode where it cannot make the -shm file, so `backup` reads a private copy of
 * the database and its log instead. On a real tmpfs remounted read-only (root).
 */
vi.setConfig({ testTimeout: 60_000 });

const disk = mountSmallDisk(16);
afterAll(() => {
  if (disk) execFileSync('mount', ['-o', 'remount,rw', disk]);
  if (disk) unmountSmallDisk(disk);
});

describe.skipIf(disk === null)('backup from a data folder on a read-only disk', () => {
  it.each([
    ['the agent died with it (its last changes only in the -wal)', 'SIGKILL' as const],
    ['the agent was stopped first (a rescued disk mounted read-only)', 'SIGTERM' as const],
  ])('copies everything the agent committed when %s, and leaves nothing beside the backup', async (_when, signal) => {
    execFileSync('mount', ['-o', 'remount,rw', disk!]);
    const dir = join(disk!, `data-${signal}`);
    const token = (await runCli(['token', 'create', '--data-dir', dir])).stdout.trim();
    const agent = await startServe(['--data-dir', dir]);
    const made = await fetch(`${agent.url}/api/monitors`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'nightly', timezone: 'UTC', schedule: '0 3 * * *', duration: 30 }),
    });
    expect(made.status).toBe(201);
    await agent.stop(signal);
    expect(readdirSync(dir).includes('cronbeat.db-wal')).toBe(signal === 'SIGKILL');
    execFileSync('mount', ['-o', 'remount,ro', disk!]);

    const outDir = tempFolder();
    const out = join(outDir, 'rescue.db');
    const result = await runCli(['backup', '--out', out, '--data-dir', dir]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readdirSync(outDir)).toEqual(['rescue.db']);
    const copy = new Database(out, { readonly: true });
    expect(copy.prepare('SELECT name FROM monitors').pluck().all()).toEqual(['nightly']);
    copy.close();
  });
});
