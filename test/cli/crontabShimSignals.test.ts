import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { shimScript } from '../../agent/cli/crontab/shim';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { CLI, cleanEnv, finished, tempFolder, type CliResult } from '../helpers/cli';
import { createMonitor } from './agentFixtures';

/*
 * The entry point `crontab discover` installs (shim.ts), run as cron runs it: a signal sent to
 * its own PID (`kill PID` of what ps shows for the cron job, a supervisor signalling its child)
 * reaches the job through the job runner, and the entry point ends with the job's status. It
 * waited inside $(…), where a shell runs no trap, so the job ran on. Real shells, the real runner
 * of dist/, and an agent in this process.
 */

vi.setConfig({ testTimeout: 30_000 });

/** The POSIX shells the entry point must work under; busybox's only where it is installed. */
const SHELLS: string[][] = [['/bin/dash'], ['/bin/bash', '--posix']];
if (spawnSync('busybox', ['sh', '-c', 'true']).status === 0) SHELLS.push(['busybox', 'sh']);
const SIGNALS = [
  ['SIGTERM', 15],
  ['SIGINT', 2],
  ['SIGHUP', 1],
  ['SIGQUIT', 3],
] as const;

let agent: TestAgent;
let token: string;
let folder: string;
let shim: string;
let runner: string;
/** The processes a signal test started: the entry point, the runner and the job. */
const leftBehind: number[] = [];

beforeAll(async () => {
  agent = await startTestAgent();
  token = (await createMonitor(agent, 'shim signals')).token;
  folder = tempFolder('cronbeat-shim-');
  runner = join(folder, 'cronbeat-run.cjs');
  copyFileSync(CLI, runner);
  shim = join(folder, 'cronbeat');
  writeFileSync(shim, shimScript(process.execPath, runner), { mode: 0o755 });
});
afterAll(async () => {
  // A job the entry point failed to stop (the defect) loops for ever: it is ended here, not left behind.
  for (const pid of leftBehind) if (alive(pid)) process.kill(pid, 'SIGKILL');
  await agent.stop();
});

/** `SHELL shim run --url … TOKEN -- JOB…` with its own empty $TMPDIR, as cron starts a line (signals at their defaults). */
function startShim(shell: string[], job: string[], tmp = tempFolder('cronbeat-shim-tmp-')): { child: ChildProcess; tmp: string } {
  const env = cleanEnv({ TMPDIR: tmp, CRONBEAT_DATA_DIR: tempFolder(), PATH: '/usr/bin:/bin' });
  const child = spawn(shell[0], [...shell.slice(1), shim, 'run', '--url', agent.url, token, '--', ...job], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  return { child, tmp };
}

/** Whether a process of this PID is still there. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A job that says "ready PID PARENT" on stdout, notes each of the four signals it gets in `notes`,
 * and then dies of it (so the runner reports 128 + N), looping until one comes.
 */
function signalledJob(notes: string): string[] {
  const traps = SIGNALS.map(([name]) => name.slice(3))
    .map((name) => `trap 'echo ${name} >> ${notes}; trap - ${name}; kill -${name} $$' ${name}`)
    .join('; ');
  return ['/bin/sh', '-c', `${traps}; echo "ready $$ $PPID"; while :; do sleep 0.05; done`];
}

describe.each(SHELLS)('the entry point under %s', (...shell) => {
  it.each(SIGNALS)('passes %s sent to its own PID to the job, then ends with the job status', async (signal, number) => {
    const notes = join(tempFolder(), 'signals');
    const { child, tmp } = startShim(shell, signalledJob(notes));
    const done = finished(child);
    const ready = await new Promise<string[]>((resolve) => {
      let seen = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const line = /ready (\d+) (\d+)\n/.exec(seen);
        if (line) resolve(line.slice(1));
      });
    });
    const [job, jobRunner] = ready.map(Number);
    leftBehind.push(child.pid!, job, jobRunner);
    expect(readdirSync(tmp)).toEqual([]); // the FIFO's folder is gone once both ends are open
    child.kill(signal);
    const result = await done;
    expect(result, result.stderr).toMatchObject({ status: 128 + number, signal: null, stderr: '' });
    expect(readFileSync(notes, 'utf8')).toBe(`${signal.slice(3)}\n`);
    expect(alive(job)).toBe(false);
    expect(alive(jobRunner)).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("gives the job the line's stdin, stdout and stderr, byte for byte, and its exit status", async () => {
    const { child, tmp } = startShim(shell, ['/bin/sh', '-c', 'cat; printf "to stderr\\n\\001" >&2; exit 5']);
    const result = await finished(child, 'hi\nno newline at the end');
    expect(result).toMatchObject({ status: 5, stdout: 'hi\nno newline at the end', stderr: 'to stderr\n\u0001' });
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('runs the job through the runner as before where no FIFO can be made (no temporary folder)', async () => {
    const { child } = startShim(shell, ['/bin/sh', '-c', 'cat; exit 4'], join(folder, 'no-such-folder'));
    expect(await finished(child, 'in')).toMatchObject({ status: 4, stdout: 'in', stderr: '' });
  });

  it('never runs the job twice when the runner dies after it began', async () => {
    const counter = join(tempFolder(), 'runs');
    const { child, tmp } = startShim(shell, ['/bin/sh', '-c', `echo ran >> ${counter}; kill -9 $PPID; exit 3`]);
    expect(await finished(child)).toMatchObject({ status: 137 });
    expect(readFileSync(counter, 'utf8')).toBe('ran\n');
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe.each(SHELLS)('a runner stopped before it starts the job, under %s', (...shell) => {
  it.each(SIGNALS.slice(0, 2))('%s ends the entry point with the runner status, and the job is not run directly instead', async (signal, number) => {
    // A runner still loading: it says so, then neither starts the job nor handles a signal.
    const dir = tempFolder('cronbeat-shim-loading-');
    const loading = join(dir, 'loading.cjs');
    writeFileSync(loading, "process.stdout.write(`loading ${process.pid}\\n`); setInterval(() => {}, 60_000);\n");
    const entry = join(dir, 'cronbeat');
    writeFileSync(entry, shimScript(process.execPath, loading), { mode: 0o755 });
    const counter = join(dir, 'runs');
    const tmp = tempFolder('cronbeat-shim-tmp-');
    const child = spawn(shell[0], [...shell.slice(1), entry, 'run', token, '--', '/bin/sh', '-c', `echo ran >> ${counter}`], {
      env: cleanEnv({ TMPDIR: tmp, PATH: '/usr/bin:/bin' }),
    });
    const done = finished(child);
    const said = await new Promise<string>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    leftBehind.push(child.pid!, Number(/loading (\d+)/.exec(said)![1]));
    child.kill(signal);
    expect(await done).toMatchObject({ status: 128 + number, signal: null, stdout: said, stderr: '' });
    expect(() => readFileSync(counter)).toThrow(/ENOENT/);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe.each(SHELLS)('a broken runner under %s', (...shell) => {
  const broken = join(tempFolder('cronbeat-shim-broken-'), 'cronbeat');
  /** The entry point with a runner that throws as it loads, or none at all. */
  const withRunner = (text: string | null): string => {
    const path = join(broken, '..', text === null ? 'missing.cjs' : 'broken.cjs');
    if (text !== null) writeFileSync(path, text);
    writeFileSync(broken, shimScript(process.execPath, path), { mode: 0o755 });
    chmodSync(broken, 0o755);
    return broken;
  };

  it.each([
    ['missing', null],
    ['throwing as it loads', 'throw new Error("broken install");\n'],
  ])('runs the job directly, once, with its stdin and status, when the runner is %s', async (_, text) => {
    const counter = join(tempFolder(), 'runs');
    const tmp = tempFolder('cronbeat-shim-tmp-');
    const child = spawn(shell[0], [...shell.slice(1), withRunner(text), 'run', token, '--', '/bin/sh', '-c', `echo ran >> ${counter}; cat; exit 3`], {
      env: cleanEnv({ TMPDIR: tmp, PATH: '/usr/bin:/bin' }),
    });
    const result: CliResult = await finished(child, 'stdin');
    expect(result).toMatchObject({ status: 3, stdout: 'stdin' });
    expect(result.stderr).toMatch(/cronbeat: the job runner could not start \(.*\); running the job without monitoring\n$/);
    expect(readFileSync(counter, 'utf8')).toBe('ran\n');
    expect(readdirSync(tmp)).toEqual([]);
  });
});
