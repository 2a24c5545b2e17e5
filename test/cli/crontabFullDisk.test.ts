import { ftruncateSync, closeSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { discoverAgent } from './discoverAgent';
import { runCli, tempFolder } from '../helpers/cli';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/smallDisk';

/*
 * crontab discover rewrites a crontab on a disk with a little room left, less than the new file
 * needs: the write falls short without an error. Renamed into place, the cut file would stop every
 * job past the cut. On a real small tmpfs (root).
 */

vi.setConfig({ testTimeout: 60_000 });

const { agent } = discoverAgent();
const disk = mountSmallDisk(1);
afterAll(() => {
  if (disk) unmountSmallDisk(disk);
});

describe.skipIf(disk === null)('crontab discover on a nearly full disk', () => {
  it('leaves the crontab byte for byte as it was, and nothing half-written beside it', async () => {
    const file = join(disk!, 'jobs');
    const crontab = Array.from({ length: 24 }, (_, i) => `${i} 3 * * * /usr/local/bin/job-${i}.sh\n`).join('');
    writeFileSync(file, crontab, { mode: 0o644 });
    const filler = fillDisk(disk!);
    // Room for the backup of the file (one page) and one page more: less than the rewritten file needs.
    const fd = openSync(filler, 'r+');
    ftruncateSync(fd, Math.max(0, statSync(filler).size - 8192));
    closeSync(fd);

    const folder = tempFolder();
    const result = await runCli(['crontab', 'discover', '--file', file], {
      env: { CRONBEAT_URL: agent().url, CRONBEAT_API_TOKEN: agent().token, CRONBEAT_DATA_DIR: folder, TZ: 'UTC' },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/ENOSPC: the disk is full\): nothing was changed/);
    expect(readFileSync(file, 'utf8')).toBe(crontab);
    expect(readdirSync(disk!).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
