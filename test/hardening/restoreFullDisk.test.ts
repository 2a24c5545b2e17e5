import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempFolder } from '../helpers/cli';
import { mountSmallDisk, unmountSmallDisk } from '../helpers/smallDisk';

/*
 * A restore onto a disk without room for the backup: the copy falls short. It must say the disk
 * is full and change nothing, never call a good backup damaged (the admin would throw it away).
 * On a real small tmpfs (root).
 */

// 2 MB: a new data folder's database and the log of its migrations take about 1 MB before the restore (round 4's
// last migrations made them overflow 1 MB, and the restore then failed before its copy began).
const disk = mountSmallDisk(2);
afterAll(() => {
  if (disk) unmountSmallDisk(disk);
});

describe.skipIf(disk === null)('restore onto a disk without room for the backup', () => {
  it('says the disk is full, leaves the database as it was and nothing beside it, and does not blame the backup', async () => {
    const dir = join(disk!, 'data');
    await runCli(['token', 'create', '--name', 'current', '--data-dir', dir]);
    const before = readFileSync(join(dir, 'cronbeat.db'));
    const backup = join(tempFolder(), 'big.db');
    expect((await runCli(['backup', '--out', backup, '--data-dir', dir])).status).toBe(0);
    const grow = new Database(backup);
    grow.exec('CREATE TABLE filler (b); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600) INSERT INTO filler SELECT randomblob(4000) FROM n;');
    grow.close();

    const result = await runCli(['restore', backup, '--data-dir', dir]);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([`cronbeat: Could not restore ${backup}: the disk holding the data folder ${dir} is full (the restore needs room for a copy of it, 3 MB, beside the database it replaces). Free some space and restore again; nothing was changed.`]);
    expect(result.stderr).not.toMatch(/damaged|not a readable/);
    expect(readFileSync(join(dir, 'cronbeat.db')).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((name) => name.includes('partial') || name.includes('before-restore'))).toEqual([]);
  });
});
