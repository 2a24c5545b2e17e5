import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { closedPort, spawnCli, finished, tempFolder } from '../helpers/cli';

// Real node processes on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const TOKEN = '4f0c2b1e-9d8a-4c3b-8e7f-6a5b4c3d2e1a';

/*
 * A data folder in a file system that refuses new folders with ENOENT, though their parent is
 * there (procfs: XDG_DATA_HOME=/proc, or a spool in TMPDIR=/proc): Node's recursive mkdir tried
 * the parent and the folder again and again, at full CPU, for good. `run` had started its job but
 * never passed on its output nor exited, a signal did not stop it, and cron's next runs piled up.
 */
describe('a data folder and a temporary folder that cannot be made (ENOENT in /proc)', () => {
  it('cronbeat run passes its job on and exits with its status, saying its pulses were not kept', async () => {
    const marker = join(tempFolder(), 'ran');
    const child = spawnCli(['run', TOKEN, '--', '/bin/sh', '-c', 'echo job output; touch "$0"; exit 6', marker], {
      env: { CRONBEAT_URL: `http://127.0.0.1:${await closedPort()}`, CRONBEAT_DATA_DIR: '/proc/cronbeat-test', TMPDIR: '/proc' },
    });
    // A hang is ended here, so that it fails this test rather than the suite's time limit.
    const hang = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const result = await finished(child);
    clearTimeout(hang);
    expect({ status: result.status, signal: result.signal, stdout: result.stdout, ran: existsSync(marker) }).toEqual({ status: 6, signal: null, stdout: 'job output\n', ran: true });
    expect(result.stderr).toContain('start pulse not sent and not kept');
    expect(result.stderr).toContain('the data folder cannot be used (ENOENT on /proc/cronbeat-test)');
  });

  it('cronbeat ping says in one line that its pulse was neither sent nor kept (exit 1)', async () => {
    const child = spawnCli(['ping', TOKEN], { env: { CRONBEAT_URL: `http://127.0.0.1:${await closedPort()}`, CRONBEAT_DATA_DIR: '/proc/cronbeat-test', TMPDIR: '/proc' } });
    const hang = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const result = await finished(child);
    clearTimeout(hang);
    expect({ status: result.status, signal: result.signal }).toEqual({ status: 1, signal: null });
    expect(result.stderr).toMatch(/not sent and not kept/);
  });
});
