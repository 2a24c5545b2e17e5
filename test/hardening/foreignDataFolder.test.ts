import { spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import { openStore } from '../../agent/db/store';
import { CLI, cleanEnv, finished, type CliResult } from '../helpers/cli';
import { tempDir } from '../helpers/testAgent';

/*
 * A data folder owned by another user, or locked read-only on purpose by its owner, is refused
 * in one line that says whose it is and what to do; no mode is ever changed to get past it
 * (neither the folder's nor a file's the user locked).
 */

const posix = process.platform !== 'win32';
const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** `cronbeat serve` on `dir`, as `uid` when given; stopped at once if it ever starts listening. */
function serveOn(dir: string, uid?: number): Promise<CliResult & { listened: boolean }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--no-popups', '--data-dir', dir], {
    env: cleanEnv({ HOME: '/tmp' }),
    cwd: '/',
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(uid === undefined ? {} : { uid, gid: NOBODY }),
  });
  let listened = false;
  child.stdout!.on('data', (chunk) => {
    if (String(chunk).includes('listening')) {
      listened = true;
      child.kill('SIGTERM');
    }
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return finished(child).then((result) => {
    clearTimeout(killer);
    return { ...result, listened };
  });
}

function expectOneLineRefusal(result: CliResult & { listened: boolean }, pattern: RegExp): void {
  expect(result.listened, 'the agent started').toBe(false);
  expect(result.status).toBe(1);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

describe.runIf(posix && isRoot)("another user's data folder", () => {
  it('is refused, naming its owner and what to do, when a user runs Cronbeat on root\'s folder', async () => {
    const dir = join(tempDir(), 'shared');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    chmodSync(join(dir, '..'), 0o755);
    const result = await serveOn(dir, NOBODY);
    expectOneLineRefusal(result, /^cronbeat: The data folder .*shared belongs to root, not to you \(nobody\)\. Run Cronbeat as root, or use a folder of your own with --data-dir/);
    expect(result.stderr).not.toMatch(/EPERM|chmod/);
    expect(modeOf(dir)).toBe('755');
  });

  it('is refused when root runs Cronbeat on a user\'s folder, and nothing is written into it', async () => {
    const dir = tempDir();
    chownSync(dir, NOBODY, NOBODY);
    chmodSync(dir, 0o750);
    const result = await serveOn(dir);
    expectOneLineRefusal(result, /^cronbeat: The data folder .* belongs to nobody, not to you \(root\)\. .*sudo chown -R root /);
    expect(readdirSync(dir)).toEqual([]);
    expect(modeOf(dir)).toBe('750');
  });
});

describe.runIf(posix)('a data folder locked on purpose', () => {
  it('is refused when the folder is read-only, and stays read-only', async () => {
    const dir = tempDir();
    openStore(databaseFile(dir), Date.now()).close();
    chmodSync(dir, 0o500);
    try {
      const result = await serveOn(dir);
      expectOneLineRefusal(result, /^cronbeat: The data folder .* is read-only \(mode 0500\), and Cronbeat leaves the mode you set\. .*chmod u\+wx .*--data-dir/);
      expect(modeOf(dir)).toBe('500');
    } finally {
      chmodSync(dir, 0o700);
    }
  });

  it('is refused when the database is read-only, and the database stays read-only', async () => {
    const dir = tempDir();
    openStore(databaseFile(dir), Date.now()).close();
    chmodSync(databaseFile(dir), 0o400);
    const result = await serveOn(dir);
    expectOneLineRefusal(result, /^cronbeat: The file .*cronbeat\.db is read-only \(mode 0400\), and Cronbeat leaves the mode you set\./);
    expect(modeOf(databaseFile(dir))).toBe('400');
  });

  it('leaves a file the user locked exactly as it is, while tightening the rest', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'keep-me.txt'), 'mine', { mode: 0o444 });
    chmodSync(join(dir, 'keep-me.txt'), 0o444);
    writeFileSync(join(dir, 'notes.txt'), 'x', { mode: 0o644 });
    chmodSync(join(dir, 'notes.txt'), 0o644);
    const result = await serveOn(dir);
    expect(result.listened).toBe(true);
    expect(modeOf(join(dir, 'keep-me.txt'))).toBe('444');
    expect(modeOf(join(dir, 'notes.txt'))).toBe('600');
    expect(modeOf(dir)).toBe('700');
  });
});
