import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../../helpers/testAgent';
import { createMonitor, pulsesOf } from '../agentFixtures';
import { CLI, cleanEnv, closedPort, finished, spawnCli, tempFolder } from '../../helpers/cli';
import { until } from '../../helpers/until';
import { shellQuote } from '../../../agent/domain/text/shellQuote';

// Real node processes on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
let env: Record<string, string>;
let down: string;

beforeAll(async () => {
  agent = await startTestAgent();
  down = `http://127.0.0.1:${await closedPort()}`;
  env = { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: tempFolder() };
});
afterAll(() => agent.stop());

/** Resolves with the first line of `child`'s stdout that matches; rejects if the process ends first. */
function lineOf(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const line = seen.split('\n').find((l) => pattern.test(l));
      if (line !== undefined) {
        child.stdout!.off('data', onData);
        resolve(line);
      }
    };
    child.stdout!.on('data', onData);
    child.once('close', () => reject(new Error(`ended before printing ${pattern}; stdout: ${JSON.stringify(seen)}`)));
  });
}

describe('cronbeat run: the job and the signals sent to cronbeat', () => {
  it('passes SIGUSR1, SIGUSR2 and SIGQUIT on to the job instead of opening a debugger or dying of them', async () => {
    const monitor = await createMonitor(agent);
    // A job that handles each signal and ends once it has had all three (or, if they never come, after a minute).
    const job = "let left = 3; for (const s of ['SIGUSR1', 'SIGUSR2', 'SIGQUIT']) process.on(s, () => { console.log('got ' + s); if (--left === 0) process.exit(0); }); console.log('ready'); setTimeout(() => process.exit(9), 60_000);";
    // In a session of its own: on the terminal the tests may run from, SIGQUIT would be read as Ctrl-\.
    const child = spawn(process.execPath, [CLI, 'run', monitor.token, '--', process.execPath, '-e', job], { env: cleanEnv(env), stdio: 'pipe', detached: true });
    const done = finished(child);
    await lineOf(child, /^ready$/);
    for (const signal of ['SIGUSR1', 'SIGUSR2', 'SIGQUIT'] as const) {
      const got = lineOf(child, new RegExp(`^got ${signal}$`));
      child.kill(signal);
      await got;
    }
    const result = await done;
    expect(result.status).toBe(0);
    expect(result.stderr).not.toMatch(/Debugger/);
    expect((await pulsesOf(agent, monitor.id)).map((p) => p.kind)).toEqual(['start', 'success']);
  });

  // Signals whose default ends a process: `sv alarm` (runit) and `svc -a` (daemontools) send
  // SIGALRM, `pkill -ALRM -f backup` matches run too. run died of each (exit 142…), leaving the
  // job behind, writing into a closed pipe, its status never reported.
  const others = ['SIGALRM', 'SIGVTALRM', 'SIGPROF', 'SIGPWR', 'SIGIO', 'SIGSTKFLT', 'SIGXCPU', 'SIGTRAP', 'SIGSYS'] as const;
  it(`passes ${others.join(', ')} on to the job instead of dying of them`, async () => {
    const monitor = await createMonitor(agent);
    const job = `let left = ${others.length}; for (const s of ${JSON.stringify(others)}) process.on(s, () => { console.log('got ' + s); if (--left === 0) process.exit(0); }); console.log('ready'); setTimeout(() => process.exit(9), 60_000);`;
    const child = spawn(process.execPath, [CLI, 'run', monitor.token, '--', process.execPath, '-e', job], { env: cleanEnv(env), stdio: 'pipe', detached: true });
    const done = finished(child);
    await lineOf(child, /^ready$/);
    for (const signal of others) {
      const got = lineOf(child, new RegExp(`^got ${signal}$`));
      child.kill(signal);
      await got;
    }
    const result = await done;
    expect({ status: result.status, signal: result.signal }).toEqual({ status: 0, signal: null });
    expect((await pulsesOf(agent, monitor.id)).map((p) => p.kind)).toEqual(['start', 'success']);
  });

  it('exits with the job\'s status when one of them comes after the job has ended, while the pulses wait for the agent', async () => {
    // An agent that takes the connection and never answers: run waits on it after the job.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket.on('error', () => {}));
    });
    await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', listening));
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
      const child = spawn(process.execPath, [CLI, 'run', 'some-token', '--url', url, '--', 'sh', '-c', 'echo done; exit 3'], { env: cleanEnv(env), stdio: 'pipe', detached: true });
      const done = finished(child);
      await lineOf(child, /^done$/);
      // Once the job has ended, not while it runs, where the signal is the job's; again until run
      // has seen the end too (one that comes between is passed to the job that is no more).
      await until(() => childrenOf(child.pid!).length === 0, 'the job to end');
      let exited = false;
      const result = await new Promise<Awaited<typeof done>>((resolve) => {
        const again = setInterval(() => !exited && child.kill('SIGALRM'), 100);
        void done.then((ended) => {
          exited = true;
          clearInterval(again);
          resolve(ended);
        });
      });
      expect({ status: result.status, signal: result.signal }).toEqual({ status: 3, signal: null });
      expect(result.stderr).toMatch(/stopped by SIGALRM while reporting the run: 2 pulses not yet answered kept in the spool/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((closed) => silent.close(closed));
    }
  });
});

/** The pids of `pid`'s children (Linux). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe('cronbeat run on a terminal', () => {
  /** The signals waiting for process `pid` as a whole (ShdPnd of /proc/PID/status). */
  const pendingOf = (pid: number) => BigInt(`0x${/^ShdPnd:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]}`);
  const SIGINT_BIT = 1n << 1n;

  /**
   * Starts `cronbeat run … -- [...before] JOB` on a real pty (util-linux's `script`; what is written
   * to its stdin is typed on that terminal). The job writes what it gets to a file (run's own output
   * waits while run is stopped): its SIGINTs, then on SIGUSR2 (forwarded by run) how many came, and
   * ends with that count. Through a shell in the same process group, so that `script` does not see
   * run stop; the shell itself ignores the Ctrl-C (run and the job set their own handlers).
   */
  async function onTerminal(before: string[]) {
    const monitor = await createMonitor(agent);
    const said = join(tempFolder(), 'job.txt');
    const job = `const say = (t) => require('fs').appendFileSync(${JSON.stringify(said)}, t + '\\n'); let n = 0; process.on('SIGINT', () => say('SIGINT ' + ++n)); process.on('SIGUSR2', () => { say('total ' + n); process.exit(n); }); say('ready ' + process.ppid); setTimeout(() => process.exit(9), 60_000);`;
    const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, CLI, 'run', monitor.token, '--', ...before, process.execPath, '-e', job].map(quote).join(' ');
    // `script` runs its command with $SHELL -c: named here, so that no shell of the caller's (one
    // that waits for a child instead of becoming it) stands in the group without ignoring the Ctrl-C.
    const child = spawn('script', ['-qec', `trap '' INT; ${command}; exit $?`, '/dev/null'], { env: cleanEnv({ ...env, SHELL: '/bin/sh' }), stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout!.resume();
    const done = new Promise<number | null>((resolve) => child.on('close', (status) => resolve(status)));
    const read = () => (existsSync(said) ? readFileSync(said, 'utf8') : '');
    const run = Number(/^ready (\d+)$/m.exec(await until(() => /^ready \d+$/m.test(read()) && read(), 'the job to start'))![1]);
    const ctrlC = () => child.stdin!.write('\u0003');
    /** Has run forward a SIGUSR2 after everything before, and resolves with the job's (and run's) status. */
    const end = async () => {
      process.kill(run, 'SIGUSR2');
      child.stdin!.end();
      return done;
    };
    return { run, read, ctrlC, end };
  }

  it('one Ctrl-C reaches the job once: the terminal sends it to the job itself, so run does not send it again', async () => {
    const { run, read, ctrlC, end } = await onTerminal([]);
    // Stopped, run keeps the terminal's SIGINT waiting until the job has taken its own, so the two
    // could never merge into one at the job: a second one sent by run would be counted.
    process.kill(run, 'SIGSTOP');
    ctrlC();
    await until(() => read().includes('SIGINT 1'), 'the job to get the Ctrl-C');
    process.kill(run, 'SIGCONT');
    await until(() => (pendingOf(run) & SIGINT_BIT) === 0n, 'run to take its SIGINT');
    expect(await end()).toBe(1);
    expect(read()).toMatch(/^total 1$/m);
  });

  it('a job in a session of its own, which the terminal does not reach, gets the Ctrl-C from run', async () => {
    const { read, ctrlC, end } = await onTerminal(['setsid']);
    ctrlC();
    await until(() => read().includes('SIGINT 1'), 'the job to get the Ctrl-C');
    expect(await end()).toBe(1);
    expect(read()).toMatch(/^total 1$/m);
  });
});

/**
 * The end of a job that leaves a process holding its output is reported DRAIN_AFTER_EXIT_MS (1 s)
 * after it exits (runJob.ts): expect.poll's own 1 s left no room, and failed on a busy machine.
 */
const END_REPORTED = { timeout: 10_000 };

describe('cronbeat run: a job that leaves a process holding its output', () => {
  it('reports the end when the job exits, passes the rest of the output through and exits with the job\'s status when the output closes', async () => {
    const monitor = await createMonitor(agent);
    // The job starts a background process that keeps its stdout (as `nohup worker &` does) and exits 4.
    const job = '( sleep 300 & echo "daemon $!"; wait; echo "after the job" ) & echo "job done"; exit 4';
    const child = spawnCli(['run', monitor.token, '--', 'sh', '-c', job], { env });
    const done = finished(child);
    const daemon = Number((await lineOf(child, /^daemon \d+$/)).split(' ')[1]);
    try {
      await expect.poll(async () => (await pulsesOf(agent, monitor.id)).find((p) => p.kind !== 'start'), END_REPORTED).toMatchObject({ kind: 'fail', exit_code: 4 });
      // cronbeat waits for the output still coming, so the background process never writes into a closed pipe.
      expect(child.exitCode).toBeNull();
    } finally {
      process.kill(daemon, 'SIGTERM');
    }
    const result = await done;
    expect(result.status).toBe(4);
    expect(result.stdout.split('\n').filter((l) => !l.startsWith('daemon '))).toEqual(['job done', 'after the job', '']);
    const pulses = await pulsesOf(agent, monitor.id);
    expect(pulses.map((p) => p.kind)).toEqual(['start', 'fail']);
    expect(pulses[1].body).toContain('job done');
  });
});

describe('cronbeat run: stopped while a process the job left holds its output', () => {
  it('SIGTERM once the job has ended and its end is reported: run exits with the job\'s status (the signal went to the job that was no more, and run waited on)', async () => {
    const monitor = await createMonitor(agent);
    const job = '( sleep 300 & echo "daemon $!"; wait ) & echo "job done"; exit 4';
    const child = spawnCli(['run', monitor.token, '--', 'sh', '-c', job], { env });
    const done = finished(child);
    const daemon = Number((await lineOf(child, /^daemon \d+$/)).split(' ')[1]);
    // Whatever the outcome, nothing of this test outlives it.
    onTestFinished(() => {
      for (const pid of [daemon, child.pid!]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    });
    await expect.poll(async () => (await pulsesOf(agent, monitor.id)).find((p) => p.kind !== 'start'), END_REPORTED).toMatchObject({ kind: 'fail', exit_code: 4 });
    child.kill('SIGTERM');
    const result = await done;
    expect({ status: result.status, signal: result.signal }).toEqual({ status: 4, signal: null });
  });
});

describe('cronbeat run: words and environment that are not UTF-8', () => {
  it('gives the job its arguments and environment byte for byte (Latin-1 file names), not with U+FFFD in their place', async () => {
    // Node holds arguments as text: the bytes are made by a shell, as cron's would be.
    const script = `X="$(printf 'd\\351j\\340')"; export X; exec ${shellQuote(process.execPath)} ${shellQuote(CLI)} run some-token --url ${shellQuote(down)} -- sh -c 'printf "%s|%s|%s" "$1" "$2" "$X"' sh "$(printf 'caf\\351')" "$(printf 'plain')"`;
    const child = spawn('sh', ['-c', script], { env: cleanEnv({ CRONBEAT_DATA_DIR: tempFolder() }), stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout!.on('data', (chunk: Buffer) => chunks.push(chunk));
    const status = await new Promise((resolve) => child.on('close', resolve));
    expect(status).toBe(0);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from('caf\xe9|plain|d\xe9j\xe0', 'latin1'));
  });

  it('adds no PWD to the job\'s environment, nor changes the one it was given, when /bin/sh puts those bytes back', async () => {
    // dash exports PWD as it starts: a cron job (cron sets none) got one, and a PWD given was made the real folder.
    for (const [pwd, expected] of [[undefined, 'undefined'], ['/nowhere', '/nowhere']] as const) {
      const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', CRONBEAT_DATA_DIR: tempFolder(), ...(pwd ? { PWD: pwd } : {}) };
      // No shell between (a shell would set PWD itself): perl (Debian's perl-base, always there)
      // execs run with the Latin-1 byte and exactly this environment.
      const words = [process.execPath, CLI, 'run', 'some-token', '--url', down, '--', process.execPath, '-e', 'console.log(String(process.env.PWD))'];
      const child = spawn('/usr/bin/perl', ['-e', 'push @ARGV, "caf\\xe9"; exec { $ARGV[0] } @ARGV or die "exec: $!"', ...words], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const status = await new Promise((resolve) => child.on('close', resolve));
      expect({ status, stdout }, pwd ?? 'no PWD').toEqual({ status: 0, stdout: `${expected}\n` });
    }
  });

  it('runs the job even when those bytes are too many to put back (one argument holds at most 128 KB)', async () => {
    // 40,000 Latin-1 bytes: written back as printf escapes they would pass the limit, and the job would not start.
    const script = `exec ${shellQuote(process.execPath)} ${shellQuote(CLI)} run some-token --url ${shellQuote(down)} -- sh -c 'printf ran' sh "$(head -c 40000 /dev/zero | tr '\\0' '\\351')"`;
    const child = spawn('sh', ['-c', script], { env: cleanEnv({ CRONBEAT_DATA_DIR: tempFolder() }), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const status = await new Promise((resolve) => child.on('close', resolve));
    expect({ status, stdout }).toEqual({ status: 0, stdout: 'ran' });
  });

  it('runs the job when putting the bytes back would pass the kernel\'s limit for a whole command line (ARG_MAX)', async () => {
    // The command line run was given fits, 55 KB short of the limit; with the script that puts
    // 15,000 Latin-1 bytes back (75 KB of printf escapes) it did not, and the job never started
    // (E2BIG, exit 127). As Node passes it (each byte a 3-byte U+FFFD, 30 KB more) it fits.
    const env = cleanEnv({ CRONBEAT_DATA_DIR: tempFolder() });
    const argMax = Number(execFileSync('getconf', ['ARG_MAX'], { encoding: 'utf8' }));
    const envBytes = Object.entries(env).reduce((sum, [name, value]) => sum + Buffer.byteLength(`${name}=${value ?? ''}`) + 1 + 8, 0);
    const filler = Array.from({ length: Math.floor((argMax - envBytes - 55_000) / 109) }, () => 'a'.repeat(100));
    const script = `exec ${shellQuote(process.execPath)} ${shellQuote(CLI)} run some-token --url ${shellQuote(down)} -- sh -c 'printf "ran %s" "$#"' sh "$(head -c 15000 /dev/zero | tr '\\0' '\\351')" "$@"`;
    const child = spawn('sh', ['-c', script, 'sh', ...filler], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise((resolve) => child.on('close', resolve));
    expect({ status, stdout }, stderr).toEqual({ status: 0, stdout: `ran ${filler.length + 1}` });
  });
});

describe('cronbeat run: the file descriptors the job was given', () => {
  /** Runs `words` (then the job's folder) from a shell that opens a log on fd 3 and a lock on fd 9 for it, as a crontab line does: what the job wrote to each, and the numbers it held. */
  async function withDescriptors(words: string[]): Promise<{ status: number | null; three: string; nine: string; fds: string[] }> {
    const folder = tempFolder();
    const child = spawn('sh', ['-c', `"$@" ${shellQuote(folder)} 3>${shellQuote(join(folder, 'log'))} 9>${shellQuote(join(folder, 'lock'))}`, 'sh', ...words], {
      env: cleanEnv({ CRONBEAT_DATA_DIR: tempFolder() }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const [three, nine, fds] = ['log', 'lock', 'fds'].map((name) => readFileSync(join(folder, name), 'utf8'));
    return { status, three, nine, fds: fds.split('\n').filter(Boolean) };
  }

  it('gives the job every descriptor run was given, at the same numbers, and none of its own (a log on fd 3, a lock held for the job on fd 9)', async () => {
    // ls's output goes to a file it opens itself: it lists the job's descriptors and no pipe of its own.
    const job = ['sh', '-c', 'echo to-three >&3 && echo to-nine >&9 && ls /proc/$$/fd > "$1/fds"', 'sh'];
    const alone = await withDescriptors(job);
    expect(alone).toMatchObject({ status: 0, three: 'to-three\n', nine: 'to-nine\n' });
    expect(alone.fds).toEqual(expect.arrayContaining(['0', '1', '2', '3', '9']));
    const wrapped = await withDescriptors([process.execPath, CLI, 'run', 'some-token', '--url', down, '--', ...job]);
    // Node's start closed fds 3 to 19 for the job: `9: Bad file descriptor`, and the job failed.
    expect(wrapped).toEqual(alone);
  });
});
