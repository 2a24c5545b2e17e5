import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCli, tempFolder } from '../helpers/cli';

/*
 * `crontab scan --file` (which discover reads through too) given something that is no crontab file: a device
 * (`/dev/zero` was read until memory ran out), a FIFO (waited on for ever) or a folder. Each is
 * refused at once in one line naming it.
 */
vi.setConfig({ testTimeout: 30_000 });

describe('a crontab --file that is not a regular file', () => {
  it('is refused at once, for a device, a FIFO and a folder', async () => {
    const folder = tempFolder();
    const fifo = join(folder, 'crontab.fifo');
    execFileSync('mkfifo', [fifo]);
    for (const [file, why] of [
      ['/dev/zero', 'not a regular file'],
      [fifo, 'not a regular file'],
      [folder, 'a folder'],
    ] as const) {
      const result = await runCli(['crontab', 'scan', '--file', file]);
      expect(result.stderr, `--file ${file}`).toContain(`cannot read ${file}: ${why}, where a crontab is a file`);
      expect(result.status).toBe(1);
    }
  });
});
