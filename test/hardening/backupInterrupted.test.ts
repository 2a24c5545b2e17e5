import { existsSync, mkdirSync, readdirSync, statSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import { openStore } from '../../agent/db/store';
import { finished, runCli, spawnCli } from '../helpers/cli';
import { tempDir } from '../helpers/testAgent';

/*
 * `cronbeat backup` and `cronbeat restore` never leave a copy of the database (API token hashes,
 * job output) readable by others, not even while it is being written, nor behind them when
 * interrupted; and what they say names the user's files, never an internal `.partial-PID` name.
 */

/** A data folder whose database is big enough (about 120 MB) for a backup to take a moment. */
function bigDataDir(): string {
  const dir = tempDir();
  openStore(databaseFile(dir), Date.now()).close();
  const db = new Database(databaseFile(dir));
  db.exec(`CREATE TABLE filler (b BLOB);
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000) INSERT INTO filler SELECT randomblob(4000) FROM n;`);
  db.close();
  return dir;
}

describe.skipIf(process.platform === 'win32')('an interrupted backup', () => {
  it('writes its copy in a private folder from the first byte and removes it when killed', { timeout: 60_000 }, async () => {
    const dataDir = bigDataDir();
    const outDir = tempDir();
    const out = join(outDir, 'nightly.db');
    const modes: string[] = [];
    const watcher = watch(outDir, (_event, name) => {
      if (!name) return;
      try {
        modes.push(`${name} ${(statSync(join(outDir, name)).mode & 0o777).toString(8)}`);
      } catch {
        // gone already
      }
    });
    const child = spawnCli(['backup', '--out', out, '--data-dir', dataDir]);
    const result = finished(child);
    await expect.poll(() => modes.length, { timeout: 20_000, interval: 5 }).toBeGreaterThan(0);
    child.kill('SIGTERM');
    const { status, signal } = await result;
    watcher.close();

    // The copy is made in a folder of this user's alone, from the first moment it exists: in a folder others
    // may write to (/tmp), no one can see the copy, nor put a file where SQLite will open its journal.
    expect(modes[0]).toMatch(/^\.nightly\.db\.partial-\d+ 700$/);
    for (const seen of modes) expect(seen).toMatch(/^\.nightly\.db\.partial-\d+ 700$/);
    expect(status === 143 || signal === 'SIGTERM').toBe(true);
    expect(readdirSync(outDir)).toEqual([]); // nothing left behind, and no half backup
  });

  it('stops when killed in the middle of copying, instead of finishing and saying all went well', { timeout: 60_000 }, async () => {
    const dataDir = bigDataDir();
    const outDir = tempDir();
    const out = join(outDir, 'nightly.db');
    const child = spawnCli(['backup', '--out', out, '--data-dir', dataDir]);
    const result = finished(child);
    const copied = () => {
      const work = readdirSync(outDir).find((name) => /\.partial-\d+$/.test(name));
      return work ? statSync(join(outDir, work, 'backup.db'), { throwIfNoEntry: false })?.size ?? 0 : 0;
    };
    // Past the first 100 pages (400 KB): the copy is inside its one long step.
    await expect.poll(copied, { timeout: 20_000, interval: 2 }).toBeGreaterThan(1_000_000);
    child.kill('SIGTERM');
    const { status, signal, stdout } = await result;

    expect(stdout).not.toContain('Backed up');
    expect(status === 143 || signal === 'SIGTERM').toBe(true);
    expect(readdirSync(outDir)).toEqual([]);
  });
});

describe('messages', () => {
  it('say plainly when the folder for the backup does not exist, as the docs\' ~/backups may not', async () => {
    const dataDir = tempDir();
    openStore(databaseFile(dataDir), Date.now()).close();
    const missing = join(tempDir(), 'backups');
    const backup = await runCli(['backup', '--out', join(missing, 'cronbeat.db'), '--data-dir', dataDir]);
    expect(backup.status).toBe(1);
    expect(backup.stderr.trim()).toBe(`cronbeat: The folder ${missing} does not exist: create it first (mkdir -p ${missing}), or give --out a file in a folder that does.`);
  });

  it('name the file the user gave, never the temporary copy', async () => {
    const dataDir = tempDir();
    openStore(databaseFile(dataDir), Date.now()).close();

    const outIsAFolder = join(tempDir(), 'backups');
    mkdirSync(outIsAFolder);
    const backup = await runCli(['backup', '--out', outIsAFolder, '--data-dir', dataDir]);
    expect(backup.status).toBe(1);
    expect(backup.stderr).toContain(outIsAFolder);
    expect(backup.stderr).not.toContain('.partial-');
    expect(readdirSync(join(outIsAFolder, '..'))).toEqual(['backups']);

    const damaged = join(tempDir(), 'cut-short.db');
    writeFileSync(damaged, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(5000, 7)]));
    const restore = await runCli(['restore', damaged, '--data-dir', dataDir]);
    expect(restore.status).toBe(1);
    expect(restore.stderr).toContain(damaged);
    expect(restore.stderr).not.toContain('.partial-');
    expect(existsSync(databaseFile(dataDir))).toBe(true);
    expect(readdirSync(dataDir).filter((name) => name.includes('partial'))).toEqual([]);
  });
});

describe.skipIf(process.platform === 'win32')('a backup killed outright', () => {
  it('leaves a work folder that the next backup to the same file removes', { timeout: 60_000 }, async () => {
    const dataDir = bigDataDir();
    const outDir = tempDir();
    const out = join(outDir, 'nightly.db');
    const child = spawnCli(['backup', '--out', out, '--data-dir', dataDir]);
    const result = finished(child);
    const work = () => readdirSync(outDir).find((name) => /\.partial-\d+$/.test(name));
    await expect.poll(() => (work() ? statSync(join(outDir, work()!, 'backup.db'), { throwIfNoEntry: false })?.size ?? 0 : 0), { timeout: 20_000, interval: 2 }).toBeGreaterThan(1_000_000);
    child.kill('SIGKILL'); // no handler runs: the work folder, as large as the copy so far, stays
    await result;
    expect(work()).toBeDefined();
    // Someone else's work beside it, or one of a process still running, is not ours to remove.
    mkdirSync(join(outDir, `.nightly.db.partial-${process.pid}`));

    const again = await runCli(['backup', '--out', out, '--data-dir', dataDir]);

    expect(again.status).toBe(0);
    expect(readdirSync(outDir).sort()).toEqual([`.nightly.db.partial-${process.pid}`, 'nightly.db']);
  });
});
