import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { createMonitor, monitorOf, pulsesOf } from './agentFixtures';
import { createServer, type Socket } from 'node:net';
import { finished, runCli, spawnCli, tempFolder } from '../helpers/cli';
import { until } from '../helpers/until';

// Every test starts real node processes, several seconds' worth on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
let env: Record<string, string>;

beforeAll(async () => {
  agent = await startTestAgent();
  env = { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: tempFolder() };
});
afterAll(() => agent.stop());

describe('cronbeat ping', () => {
  it('sends a success silently, and each kind of pulse to its endpoint', async () => {
    const monitor = await createMonitor(agent);
    const ok = await runCli(['ping', monitor.token], { env });
    expect(ok).toMatchObject({ status: 0, stdout: '', stderr: '' });
    await runCli(['ping', monitor.token, '--start', '--rid', 'run-1'], { env });
    await runCli(['ping', monitor.token, '--exit-code', '0', '--rid', 'run-1', '--message', 'all good'], { env });
    await runCli(['ping', monitor.token, '--fail', '--message', 'disk full'], { env });
    const pulses = await pulsesOf(agent, monitor.id);
    expect(pulses.map((p) => [p.kind, p.exit_code, p.rid, p.body])).toEqual([
      ['success', null, null, ''],
      ['start', null, 'run-1', ''],
      ['success', 0, 'run-1', 'all good'],
      ['fail', null, null, 'disk full'],
    ]);
    expect(pulses[2].duration_ms).not.toBeNull();
    expect((await monitorOf(agent, monitor.id)).is_alerted).toBe(1);
  });

  it('sends a failure whose message starts with "-" (it comes from the job, as getopt takes it), instead of a usage error', async () => {
    const monitor = await createMonitor(agent);
    const result = await runCli(['ping', monitor.token, '--fail', '--message', '-- backup failed: disk full', '--rid', '-r1'], { env });
    expect(result).toMatchObject({ status: 0, stderr: '' });
    const pulses = await pulsesOf(agent, monitor.id);
    expect(pulses.map((p) => [p.kind, p.rid, p.body])).toEqual([['fail', '-r1', '-- backup failed: disk full']]);
    // An empty, unquoted message before --fail: a mistake, never a success whose message is "--fail".
    const empty = await runCli(['ping', monitor.token, '--message', '--fail'], { env });
    expect(empty.status).toBe(2);
    expect(await pulsesOf(agent, monitor.id)).toHaveLength(1);
  });

  it('attaches standard input with --stdin and reports an exit code', async () => {
    const monitor = await createMonitor(agent);
    const result = await runCli(['ping', monitor.token, '--exit-code', '2', '--stdin'], { env, input: 'line 1\nline 2\n' });
    expect(result.status).toBe(0);
    expect((await pulsesOf(agent, monitor.id))[0]).toMatchObject({ kind: 'fail', exit_code: 2, body: 'line 1\nline 2\n' });
  });

  it('exits 1 with one line, and spools nothing, when the agent does not know the token', async () => {
    const result = await runCli(['ping', '00000000-0000-4000-8000-000000000000'], { env });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^cronbeat: pulse refused by the agent: 404/);
    expect((await runCli(['spool', 'list', '--json'], { env })).stdout.trim()).toBe('[]');
  });

  it.each([
    [['ping'], /Give the monitor token/],
    [['ping', 'tok', '--exit-code', '256'], /--exit-code must be a number from 0 to 255/],
    [['ping', 'tok', '--start', '--fail'], /only one of --start, --fail and --exit-code/],
    [['ping', 'tok', '--url', 'ftp://example.com'], /--url "ftp:\/\/example.com" must start with http/],
  ])('rejects %j with exit 2 and one line', async (args, message) => {
    const result = await runCli(args, { env });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('--help', () => {
  it.each(['ping', 'run', 'spool', 'crontab'])('cronbeat %s --help explains the options with an example', async (command) => {
    const result = await runCli([command, '--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Usage: cronbeat ${command} `));
    expect(result.stdout).toMatch(/Examples?:\n {2}\S/);
    expect(result.stdout).toMatch(/Exit status:/);
  });
});

describe('cronbeat ping stopped while the agent does not answer', () => {
  // Not only the three that mean "stop": any whose default ends the process (SIGQUIT, SIGALRM…),
  // of which ping died with its pulse neither sent nor kept.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR2', 'SIGALRM', 'SIGPWR'] as const) {
    it(`${signal}: keeps the pulse in the spool and says so`, async () => {
      let asked = 0;
      const silent = createServer((socket) => {
        asked++;
        socket.on('error', () => {}).resume();
      });
      await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', listening));
      try {
        const dataDir = tempFolder();
        const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
        const child = spawnCli(['ping', 'some-token', '--fail', '--message', 'disk full', '--url', url], { env: { CRONBEAT_DATA_DIR: dataDir } });
        const done = finished(child);
        await until(() => asked > 0, 'the ping to reach the agent');
        child.kill(signal);
        const result = await done;
        expect(result.stderr).toBe(`cronbeat: stopped by ${signal} before the agent answered: the pulse is kept in the spool, sent by the next ping or run or by \`cronbeat spool flush\`\n`);
        expect(result.status).toBe(0);
        const listed = await runCli(['spool', 'list', '--json'], { env: { CRONBEAT_DATA_DIR: dataDir } });
        expect(JSON.parse(listed.stdout).map((row: { pulse: string; body_bytes: number }) => [row.pulse, row.body_bytes])).toEqual([['fail', 9]]);
      } finally {
        await new Promise((closed) => silent.close(closed));
      }
    });
  }

  it('SIGUSR1 neither opens Node\'s debugger (to every local user, in a ping a root unit runs) nor stops it', async () => {
    let asked = 0;
    const sockets: Socket[] = [];
    const silent = createServer((socket) => {
      asked++;
      sockets.push(socket.on('error', () => {}).resume());
    });
    await new Promise<void>((listening) => silent.listen(0, '127.0.0.1', listening));
    try {
      const dataDir = tempFolder();
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
      const child = spawnCli(['ping', 'some-token', '--url', url], { env: { CRONBEAT_DATA_DIR: dataDir } });
      const done = finished(child);
      await until(() => asked > 0, 'the ping to reach the agent');
      child.kill('SIGUSR1');
      // Still waiting for the agent after it: a second connection (the next try) shows it lived on.
      for (const socket of sockets.splice(0)) socket.destroy();
      await until(() => asked > 1, 'the ping to try again');
      child.kill('SIGTERM');
      const result = await done;
      expect(result.stderr).not.toMatch(/Debugger/);
      expect(result.stderr).toMatch(/stopped by SIGTERM before the agent answered/);
      expect(result.status).toBe(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((closed) => silent.close(closed));
    }
  });
});
