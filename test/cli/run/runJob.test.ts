import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../../helpers/testAgent';
import { createMonitor, pulsesOf } from '../agentFixtures';
import { finished, spawnCli, tempFolder } from '../../helpers/cli';

// Real node processes on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
let env: Record<string, string>;

beforeAll(async () => {
  agent = await startTestAgent();
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
    const child = spawnCli(['run', monitor.token, '--', process.execPath, '-e', job], { env });
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
});

describe('cronbeat run: a job that leaves a process holding its output', () => {
  it('reports the end when the job exits, passes the rest of the output through and exits with the job\'s status when the output closes', async () => {
    const monitor = await createMonitor(agent);
    // The job starts a background process that keeps its stdout (as `nohup worker &` does) and exits 4.
    const job = '( sleep 300 & echo "daemon $!"; wait; echo "after the job" ) & echo "job done"; exit 4';
    const child = spawnCli(['run', monitor.token, '--', 'sh', '-c', job], { env });
    const done = finished(child);
    const daemon = Number((await lineOf(child, /^daemon \d+$/)).split(' ')[1]);
    try {
      await expect.poll(async () => (await pulsesOf(agent, monitor.id)).find((p) => p.kind !== 'start')).toMatchObject({ kind: 'fail', exit_code: 4 });
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
