import { closeSync, ftruncateSync, openSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { closedPort, runCli } from '../helpers/cli';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/smallDisk';

/*
 * A pulse spooled while the agent is away, on a disk with a little room left, less than the
 * pulse's line: the write falls short without an error. Said to be saved, it would be a cut line,
 * set aside unread later. On a real small tmpfs (root).
 */
vi.setConfig({ testTimeout: 60_000 });

const disk = mountSmallDisk(1);
afterAll(() => {
  if (disk) unmountSmallDisk(disk);
});

describe.skipIf(disk === null)('a pulse spooled on a nearly full disk', () => {
  it('is never kept cut short: the spool holds only whole lines, and ping says the pulse was not kept', async () => {
    const dataDir = join(disk!, 'data');
    const url = `http://127.0.0.1:${await closedPort()}`;
    const first = await runCli(['ping', 'tok-first', '--url', url, '--data-dir', dataDir]);
    expect(first.status).toBe(0);
    const filler = fillDisk(disk!);
    const fd = openSync(filler, 'r+');
    ftruncateSync(fd, Math.max(0, statSync(filler).size - 4096)); // a page: less than the next line
    closeSync(fd);

    const big = await runCli(['ping', 'tok-big', '--url', url, '--data-dir', dataDir, '--stdin'], { input: 'x'.repeat(20_000) });
    const lines = readFileSync(join(dataDir, 'spool.jsonl'), 'utf8').split('\n').filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line), line.slice(0, 80)).not.toThrow();
    expect(big.status).toBe(1);
    expect(big.stderr).toMatch(/^cronbeat: pulse not sent and not kept: cannot reach .*; the spool in .* cannot be written \(ENOSPC\)\n$/);
  });
});
