import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { createMonitor, monitorOf, pulsesOf } from './agentFixtures';
import { closedPort, finished, runCli, spawnCli, tempFolder } from '../helpers/cli';

// Every test starts real node processes, several seconds' worth on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
let env: Record<string, string>;

beforeAll(async () => {
  agent = await startTestAgent();
  env = { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: tempFolder() };
});
afterAll(() => agent.stop());

describe('cronbeat run', () => {
  it('passes output through, exits 0 and reports a paired start and success with the output', async () => {
    const monitor = await createMonitor(agent);
    const result = await runCli(['run', monitor.token, '--', 'sh', '-c', 'echo hello; echo oops >&2; echo bye'], { env });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('hello\nbye\n');
    expect(result.stderr).toBe('oops\n');
    const [start, end] = await pulsesOf(agent, monitor.id);
    expect(start).toMatchObject({ kind: 'start' });
    expect(end).toMatchObject({ kind: 'success', exit_code: 0, rid: start.rid });
    // The output carries both streams, each in its own order; two pipes promise no order between
    // them (a sleep in the job only makes one likely), so where stderr's line falls is not checked.
    const lines = end.body.split('\n');
    expect(lines.filter((line) => line !== 'oops')).toEqual(['hello', 'bye', '']);
    expect(lines.filter((line) => line === 'oops')).toHaveLength(1);
    expect(end.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it("exits with the command's own code and reports it as a failure", async () => {
    const monitor = await createMonitor(agent);
    const result = await runCli(['run', monitor.token, '--', 'sh', '-c', 'echo disk full >&2; exit 3'], { env });
    expect(result.status).toBe(3);
    const pulses = await pulsesOf(agent, monitor.id);
    expect(pulses.map((p) => p.kind)).toEqual(['start', 'fail']);
    expect(pulses[1]).toMatchObject({ exit_code: 3, body: 'disk full\n' });
    expect((await monitorOf(agent, monitor.id)).is_alerted).toBe(1);
  });

  it('forwards SIGTERM to the command and exits 128+15 when it dies of it', async () => {
    const monitor = await createMonitor(agent);
    const child = spawnCli(['run', monitor.token, '--', 'sh', '-c', 'echo ready; exec sleep 30'], { env });
    const done = finished(child);
    await new Promise<void>((ready) => child.stdout!.once('data', () => ready()));
    child.kill('SIGTERM');
    const result = await done;
    expect(result.status).toBe(143);
    expect((await pulsesOf(agent, monitor.id)).at(-1)).toMatchObject({ kind: 'fail', exit_code: 143 });
  });

  it('exits 128+signal for a command killed by a signal', async () => {
    const monitor = await createMonitor(agent);
    const result = await runCli(['run', monitor.token, '--', 'sh', '-c', 'kill -KILL $$'], { env });
    expect(result.status).toBe(137);
    expect((await pulsesOf(agent, monitor.id)).at(-1)).toMatchObject({ exit_code: 137 });
  });

  it('passes 1 MB of output through and sends only its last 100 KB', async () => {
    const monitor = await createMonitor(agent);
    const script = "console.error('start'); const line = 'x'.repeat(1023) + '\\n'; for (let i = 0; i < 1023; i++) process.stdout.write(line); process.stdout.write('x'.repeat(1016) + 'THE END\\n');";
    const result = await runCli(['run', monitor.token, '--', process.execPath, '-e', script], { env });
    expect(result.status).toBe(0);
    expect(result.stdout.length).toBe(1024 * 1024);
    const end = (await pulsesOf(agent, monitor.id)).at(-1)!;
    expect(Buffer.byteLength(end.body)).toBeLessThanOrEqual(100 * 1024);
    expect(Buffer.byteLength(end.body)).toBeGreaterThan(99 * 1024);
    expect(end.body.slice(-20)).toBe('xxxxxxxxxxxxTHE END\n');
    expect(end.body_truncated).toBe(false);
  });

  it('sends the end of output that is not UTF-8 (each byte a replacement character, three bytes) within the agent\'s 100 KB', async () => {
    const monitor = await createMonitor(agent);
    // 150 KB of Latin-1 text, then the line that says what went wrong.
    const script = "process.stdout.write(Buffer.alloc(150 * 1024, 0xe9)); process.stdout.write('\\nERROR: disk full\\n'); process.exit(1);";
    const result = await runCli(['run', monitor.token, '--', process.execPath, '-e', script], { env });
    expect(result.status).toBe(1);
    const end = (await pulsesOf(agent, monitor.id)).at(-1)!;
    expect(end.body.endsWith('\nERROR: disk full\n')).toBe(true);
    expect(end.body_truncated).toBe(false);
    expect(Buffer.byteLength(end.body)).toBeLessThanOrEqual(100 * 1024);
  });

  it('exits 127 and reports a failure when the command cannot be started', async () => {
    const monitor = await createMonitor(agent);
    const result = await runCli(['run', monitor.token, '--', '/no/such/command', '--flag'], { env });
    expect(result.status).toBe(127);
    expect(result.stderr.trim().split('\n')).toEqual(['cronbeat: cannot start "/no/such/command": command not found']);
    const end = (await pulsesOf(agent, monitor.id)).at(-1)!;
    expect(end).toMatchObject({ kind: 'fail', exit_code: 127 });
    expect(end.body).toContain('command not found');
  });

  it('exits 126, as a shell does, when the command is there but cannot be run (not executable, a folder)', async () => {
    const notExecutable = join(tempFolder(), 'backup.sh');
    writeFileSync(notExecutable, '#!/bin/sh\necho ran\n', { mode: 0o644 });
    for (const file of [notExecutable, tempFolder()]) {
      const monitor = await createMonitor(agent);
      const result = await runCli(['run', monitor.token, '--', file], { env });
      expect(result.status, file).toBe(126);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toEqual([`cronbeat: cannot start "${file}": permission denied`]);
      expect((await pulsesOf(agent, monitor.id)).at(-1)).toMatchObject({ kind: 'fail', exit_code: 126 });
    }
  });

  it('keeps the exit status and spools both pulses when the agent is down', async () => {
    const dataDir = tempFolder();
    const url = `http://127.0.0.1:${await closedPort()}`;
    const result = await runCli(['run', 'some-token', '--url', url, '--', 'sh', '-c', 'echo still runs; exit 5'], { env: { CRONBEAT_DATA_DIR: dataDir } });
    expect(result.status).toBe(5);
    expect(result.stdout).toBe('still runs\n');
    const listed = await runCli(['spool', 'list', '--json'], { env: { CRONBEAT_DATA_DIR: dataDir } });
    expect(JSON.parse(listed.stdout).map((row: { pulse: string }) => row.pulse)).toEqual(['start', 'exit 5']);
  });

  it('says what is wrong in one line when called without a command', async () => {
    const result = await runCli(['run', 'token-only'], { env });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^cronbeat: Give the command to run after --/);
  });
});
