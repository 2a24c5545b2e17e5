import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { shimScript } from '../../agent/cli/crontab/shim';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { CLI, cleanEnv, finished, tempFolder, type CliResult } from '../helpers/cli';
import { createMonitor } from './agentFixtures';

/*
 * The entry point `crontab discover` installs (shim.ts) where what runs it is odd: a signal that
 * comes before the runner starts, a relative $TMPDIR that starts with a dash, bash's errexit
 * exported by a crontab. The job still runs once, or, asked to stop before it starts, not at all.
 * Real shells, the real runner of dist/, and an agent in this process.
 */

vi.setConfig({ testTimeout: 30_000 });

const SHELLS: string[][] = [['/bin/dash'], ['/bin/bash', '--posix']];
if (spawnSync('busybox', ['sh', '-c', 'true']).status === 0) SHELLS.push(['busybox', 'sh']);
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT'] as const;

let agent: TestAgent;
let token: string;
let shim: string;

beforeAll(async () => {
  agent = await startTestAgent();
  token = (await createMonitor(agent, 'shim edges')).token;
  const folder = tempFolder('cronbeat-shim-edges-');
  const runner = join(folder, 'cronbeat-run.cjs');
  copyFileSync(CLI, runner);
  shim = join(folder, 'cronbeat');
  writeFileSync(shim, shimScript(process.execPath, runner), { mode: 0o755 });
});
afterAll(() => agent.stop());

/** `SHELL ENTRY run --url … TOKEN -- JOB…` in `cwd`, with `env` over a clean one (signals at their defaults, as cron starts a line). */
function runShim(shell: string[], entry: string, job: string[], env: Record<string, string>, cwd = '/'): Promise<CliResult> {
  const child = spawn(shell[0], [...shell.slice(1), entry, 'run', '--url', agent.url, token, '--', ...job], {
    cwd,
    env: cleanEnv({ CRONBEAT_DATA_DIR: tempFolder(), PATH: '/usr/bin:/bin', ...env }),
  });
  return finished(child, 'stdin');
}

/** A job that counts its runs in `counter`, copies its stdin to stdout and exits 3. */
const counted = (counter: string) => ['/bin/sh', '-c', `echo ran >> ${counter}; cat; exit 3`];

/** How many times the job ran. */
function runs(counter: string): number {
  try {
    return readFileSync(counter, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

describe.each(SHELLS)('the entry point under %s', (...shell) => {
  it.each(SIGNALS)('does not start the job when %s comes while it makes the FIFO, and ends as the signal would end the job', async (signal) => {
    // A `mktemp` that signals the entry point (the child of this process, above bash's subshell
    // for $(…)) as it runs: the signal comes before the runner is started. It was passed to the
    // runner just forked, which lost it, and the job ran.
    const bin = tempFolder('cronbeat-shim-bin-');
    const parentOf = (pid: string) => `$(cut -d' ' -f4 /proc/${pid}/stat)`;
    const findEntry = `entry=$PPID; while [ "${parentOf('$entry')}" != ${process.pid} ]; do entry=${parentOf('$entry')}; done`;
    writeFileSync(join(bin, 'mktemp'), `#!/bin/sh\n${findEntry}\nkill -s ${signal.slice(3)} $entry\nexec /usr/bin/mktemp "$@"\n`, { mode: 0o755 });
    const counter = join(tempFolder(), 'runs');
    const tmp = tempFolder('cronbeat-shim-tmp-');
    const result = await runShim(shell, shim, counted(counter), { PATH: `${bin}:/usr/bin:/bin`, TMPDIR: tmp });
    expect(runs(counter)).toBe(0);
    // Killed by the signal (dash) or, where the shell ignores it sent to itself (bash and QUIT), its status.
    expect(result.status ?? 128 + constants.signals[result.signal!]).toBe(128 + constants.signals[signal]);
    expect(result.stderr).toBe('');
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('uses a relative $TMPDIR that starts with a dash, and leaves nothing in it', async () => {
    const cwd = tempFolder('cronbeat-shim-cwd-');
    mkdirSync(join(cwd, '-tmp'));
    const counter = join(cwd, 'runs');
    // The job sees its grandparent, the entry point, hold the FIFO open: the signals' way was taken.
    const job = `echo ran >> ${counter}; ls -l /proc/$(cut -d' ' -f4 /proc/$PPID/stat)/fd | grep -c /started; exit 3`;
    const result = await runShim(shell, shim, ['/bin/sh', '-c', job], { TMPDIR: '-tmp' }, cwd);
    expect(result).toMatchObject({ status: 3, stdout: '1\n', stderr: '' });
    expect(runs(counter)).toBe(1);
    expect(readdirSync(join(cwd, '-tmp'))).toEqual([]);
  });

  it('runs the job through the runner, once, when the line has no stdin and no stdout at all', async () => {
    // No stdin: the runner runs inside $(…), where `exec 4>&1` on a closed stdout ended the script.
    const counter = join(tempFolder(), 'runs');
    const job = ['/bin/sh', '-c', `echo ran >> ${counter}; echo to stderr >&2; exit 5`];
    const closed = ['/bin/sh', '-c', 'exec <&- >&- "$@"', '-', ...shell, shim, 'run', '--url', agent.url, token, '--', ...job];
    const child = spawn(closed[0], closed.slice(1), { env: cleanEnv({ CRONBEAT_DATA_DIR: tempFolder(), PATH: '/usr/bin:/bin' }) });
    child.stdin.on('error', () => undefined); // its reader is closed at once
    expect(await finished(child)).toMatchObject({ status: 5, stdout: '', stderr: 'to stderr\n' });
    expect(runs(counter)).toBe(1);
  });
});

describe.each(SHELLS)('a broken runner under %s', (...shell) => {
  it('runs the job directly, once, when the line\'s stderr is a pipe nobody reads any more', async () => {
    const folder = tempFolder('cronbeat-shim-pipe-');
    const entry = join(folder, 'cronbeat');
    writeFileSync(entry, shimScript(process.execPath, join(folder, 'missing.cjs')), { mode: 0o755 });
    // stderr opened on a FIFO whose only reader is then closed: a pipe whose reader is gone.
    const fifo = join(folder, 'stderr');
    spawnSync('mkfifo', [fifo]);
    const counter = join(folder, 'runs');
    const broken = ['/bin/sh', '-c', 'exec 3<>"$0" 2>"$0" 3<&- "$@"', fifo, ...shell, entry, 'run', token, '--', ...counted(counter)];
    const child = spawn(broken[0], broken.slice(1), { env: cleanEnv({ PATH: '/usr/bin:/bin', TMPDIR: folder }) });
    // Its message was written into the broken pipe, and the PIPE signal ended it before the job ran.
    expect(await finished(child, 'stdin')).toMatchObject({ status: 3, signal: null, stdout: 'stdin' });
    expect(runs(counter)).toBe(1);
  });
});

describe('the entry point under bash with errexit in its environment (SHELLOPTS=errexit, a crontab may export it)', () => {
  it.each([
    ['bash --posix', ['/bin/bash', '--posix']],
    ['bash as sh', ['sh']],
  ])('%s runs the job directly, once, when the runner fails as it loads and no FIFO can be made', async (_, shell) => {
    const folder = tempFolder('cronbeat-shim-errexit-');
    const broken = join(folder, 'broken.cjs');
    writeFileSync(broken, 'throw new Error("broken install");\n');
    const entry = join(folder, 'cronbeat');
    writeFileSync(entry, shimScript(process.execPath, broken), { mode: 0o755 });
    // bash run by the name sh, as /bin/sh is on Fedora or Arch: its POSIX mode, SHELLOPTS still read.
    const bin = tempFolder('cronbeat-shim-bin-');
    symlinkSync('/bin/bash', join(bin, 'sh'));
    const counter = join(folder, 'runs');
    const result = await runShim(shell[0] === 'sh' ? [join(bin, 'sh')] : shell, entry, counted(counter), { SHELLOPTS: 'errexit', TMPDIR: join(folder, 'no-such-folder') });
    expect(result).toMatchObject({ status: 3, stdout: 'stdin' });
    expect(result.stderr).toMatch(/cronbeat: the job runner could not start \(.*\); running the job without monitoring\n$/);
    expect(runs(counter)).toBe(1);
  });
});
