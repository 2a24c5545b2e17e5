import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
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

  it('is said when it is not there at all (a typo), never taken for a crontab without jobs', async () => {
    const folder = tempFolder();
    const missing = join(folder, 'crontab.typo');
    const alone = await runCli(['crontab', 'scan', '--file', missing]);
    expect(alone.stderr).toContain(`cannot read ${missing}: no such file`);
    expect(alone.status).toBe(1);

    // Beside a file that is read, its jobs are listed and the typo is still said.
    const real = join(folder, 'crontab');
    writeFileSync(real, '0 3 * * * /usr/local/bin/backup.sh\n');
    const both = await runCli(['crontab', 'scan', '--file', real, '--file', missing]);
    expect(both.stdout).toContain('/usr/local/bin/backup.sh');
    expect(both.stderr).toContain(`cannot read ${missing}: no such file`);
    expect(both.status).toBe(0);
  });
});
