import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { closedPort, finished, spawnCli, tempFolder, type CliResult } from '../helpers/cli';

/*
 * A spool file that is no file (a FIFO left by a tool, a link to /dev/zero): reading a FIFO no one
 * writes blocks the whole process, signals included, so `run` and `ping` hung for good after the
 * job, and SIGTERM could not end them; /dev/zero never ends. The folder is not used for the spool
 * then, as any folder it cannot use: the private temporary one is.
 */

vi.setConfig({ testTimeout: 60_000 });

const token = '9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';

/** Runs the CLI, killing it (and failing) if it has not ended within `ms`: a hang must not outlive the test. */
async function within(ms: number, args: string[], env: Record<string, string>, user?: { uid: number; gid: number }): Promise<CliResult> {
  const child = spawnCli(args, { env, user });
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  const result = await finished(child);
  clearTimeout(timer);
  return result;
}

function dataFolderWith(name: string, make: (path: string) => void): { dataDir: string; env: Record<string, string> } {
  const dataDir = tempFolder();
  chmodSync(dataDir, 0o700);
  make(join(dataDir, name));
  const tmp = tempFolder();
  return { dataDir, env: { CRONBEAT_DATA_DIR: dataDir, TMPDIR: tmp } };
}

const fifo = (path: string) => execFileSync('mkfifo', [path]);
const devZero = (path: string) => symlinkSync('/dev/zero', path);
const folder = (path: string) => mkdirSync(path);

// Concurrent: each test waits on its own commands, folders and closed port.
describe.concurrent('a spool file that is no regular file', () => {
  for (const [name, make, what] of [
    ['spool.jsonl', fifo, 'a FIFO'],
    ['spool.jsonl', devZero, 'a link to /dev/zero'],
    ['spool.sent', fifo, 'a FIFO'],
    ['lines.json', fifo, 'a FIFO'],
    // A lock's holder is read from the lock file: a FIFO there blocked run and ping for good too.
    ['spool.lock', fifo, 'a FIFO'],
    ['spool.replay.lock', fifo, 'a FIFO'],
    ['spool.full', fifo, 'a FIFO'],
    ['spool.jsonl', folder, 'a folder'],
  ] as const) {
    it(`${name}, ${what}: run runs its job and ends, ping ends, and the pulses are kept in the temporary folder`, async () => {
      const { env } = dataFolderWith(name, make);
      const url = `http://127.0.0.1:${await closedPort()}`;
      const ran = await within(40_000, ['run', token, '--url', url, '--', '/bin/sh', '-c', 'echo ran; exit 3'], env);
      expect(ran.signal, 'run was still running').toBeNull();
      expect(ran).toMatchObject({ status: 3, stdout: 'ran\n' });
      expect(ran.stderr).toMatch(/saved to the spool \(.*kept in .*cronbeat-\d+ because the data folder cannot be used \(.* is not a file/);
      const pinged = await within(40_000, ['ping', token, '--url', url], env);
      expect(pinged.signal, 'ping was still running').toBeNull();
      expect(pinged.status).toBe(0);
      const byLine = await within(40_000, ['run', '--name', 'fifo line', '--schedule', '0 3 * * *', '--url', url, '--', 'true'], { ...env, CRONBEAT_API_TOKEN: `cb_${'a'.repeat(43)}` });
      expect(byLine.signal, 'run by line was still running').toBeNull();
      expect(byLine.status).toBe(0);
      expect(existsSync(join(env.TMPDIR, `cronbeat-${process.getuid!()}`, 'spool.jsonl'))).toBe(true);
    });
  }
});

describe.skipIf(process.getuid?.() !== 0)('a spool file this user cannot write (one root made, by a sudo that kept HOME)', () => {
  it('the spool goes to the private temporary folder: the pulses were neither sent nor kept', async () => {
    const nobody = { uid: 65534, gid: 65534 };
    const dataDir = tempFolder();
    chmodSync(dataDir, 0o700);
    writeFileSync(join(dataDir, 'spool.jsonl'), '', { mode: 0o600 }); // root's
    chownSync(dataDir, nobody.uid, nobody.gid);
    const tmp = tempFolder();
    chmodSync(tmp, 0o1777);
    const url = `http://127.0.0.1:${await closedPort()}`;
    const ran = await within(40_000, ['run', token, '--url', url, '--', '/bin/sh', '-c', 'echo ran; exit 3'], { CRONBEAT_DATA_DIR: dataDir, TMPDIR: tmp }, nobody);
    expect(ran).toMatchObject({ status: 3, stdout: 'ran\n' });
    expect(ran.stderr).toMatch(/saved to the spool \(.*kept in .*cronbeat-65534 because the data folder cannot be used \(EACCES on .*spool\.jsonl\)/);
    expect(existsSync(join(tmp, 'cronbeat-65534', 'spool.jsonl'))).toBe(true);
  });
});
