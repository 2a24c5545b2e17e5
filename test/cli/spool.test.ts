import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startAgent } from '../../agent/agent';
import { Spool } from '../../agent/client/spool/spool';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { createMonitor, pulsesOf } from './agentFixtures';
import { closedPort, runCli, tempFolder } from '../helpers/cli';

// Every test starts real node processes, several seconds' worth on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

interface SpoolRow {
  sent_at: string;
  token: string;
  pulse: string;
  rid: string | null;
}

const stopLater: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const stop of stopLater) await stop();
});

async function spoolRows(dataDir: string): Promise<SpoolRow[]> {
  const listed = await runCli(['spool', 'list', '--json'], { env: { CRONBEAT_DATA_DIR: dataDir } });
  expect(listed.status).toBe(0);
  return JSON.parse(listed.stdout) as SpoolRow[];
}

describe('the spool', () => {
  it('keeps pulses sent while the agent is stopped, and delivers each once, at its original time, after it starts', async () => {
    const agent: TestAgent = await startTestAgent();
    const monitors = [await createMonitor(agent, 'a'), await createMonitor(agent, 'b')];
    const { port, dataDir: agentDir } = agent;
    await agent.close();

    const clientDir = tempFolder();
    const env = { CRONBEAT_URL: `http://127.0.0.1:${port}`, CRONBEAT_DATA_DIR: clientDir };
    // Eight jobs at once: concurrent writers must neither lose nor mangle a line.
    const sends = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => runCli(['ping', monitors[i % 2].token, '--message', `ping ${i}`], { env })),
      runCli(['ping', monitors[0].token, '--fail'], { env }),
      runCli(['run', monitors[1].token, '--', 'sh', '-c', 'exit 4'], { env }),
    ]);
    expect(sends.map((s) => s.status)).toEqual([0, 0, 0, 0, 0, 0, 0, 4]);
    expect(sends[0].stderr).toMatch(/saved to the spool/);
    const waiting = await spoolRows(clientDir);
    expect(waiting).toHaveLength(9);

    const restarted = await startAgent({ dataDir: agentDir, port, log: () => {} });
    stopLater.push(async () => {
      await restarted.close();
      rmSync(agentDir, { recursive: true, force: true });
    });
    const flushed = await runCli(['spool', 'flush'], { env });
    expect(flushed.stdout).toBe('Delivered 9 pulses; 0 still waiting.\n');
    expect(flushed.status).toBe(0);
    expect(await spoolRows(clientDir)).toEqual([]);
    expect((await runCli(['spool', 'flush'], { env })).stdout).toBe('Delivered 0 pulses; 0 still waiting.\n');

    // agent.api still works: it calls the same port, and the token lives in the same database.
    const received = [...(await pulsesOf(agent, monitors[0].id)), ...(await pulsesOf(agent, monitors[1].id))];
    expect(received).toHaveLength(9);
    const credited = received.map((p) => p.received_at).sort();
    expect(credited).toEqual(waiting.map((row) => row.sent_at).sort());
  });

  it('sends nothing twice when a replay fails half-way', async () => {
    const dataDir = tempFolder();
    const down = `http://127.0.0.1:${await closedPort()}`;
    const spool = new Spool(dataDir);
    for (let i = 0; i < 5; i++) await spool.append(down, { tokenOrSlug: `token-${i}`, signal: 'success', key: `key-${i}`, at: Date.now() });
    // An agent that takes two pulses, then drops every connection, as if it died mid-replay.
    const seen: string[] = [];
    let accepting = 2;
    const flaky: Server = createServer((request, response) => {
      if (accepting <= 0) return request.socket.destroy();
      accepting--;
      seen.push(request.url!);
      response.end('OK');
    });
    await new Promise<void>((ready) => flaky.listen(0, '127.0.0.1', ready));
    stopLater.push(() => new Promise((done) => flaky.close(() => done())));
    const url = `http://127.0.0.1:${(flaky.address() as { port: number }).port}`;

    const first = await runCli(['spool', 'flush', '--url', url], { env: { CRONBEAT_DATA_DIR: dataDir } });
    expect(first.status).toBe(1);
    expect(first.stderr).toMatch(/Delivered 2 pulses; 3 still waiting/);
    expect((await spoolRows(dataDir)).map((row) => row.token)).toEqual(['token-2', 'token-3', 'token-4']);

    accepting = Infinity;
    const second = await runCli(['spool', 'flush', '--url', url], { env: { CRONBEAT_DATA_DIR: dataDir } });
    expect(second.status).toBe(0);
    expect(seen).toEqual([0, 1, 2, 3, 4].map((i) => `/api/pulse/token-${i}`));
  });

  it('lists what waits as a table, and explains an empty spool', async () => {
    const dataDir = tempFolder();
    // Never "every pulse was delivered": none may ever have been sent, or the agent refused some.
    expect((await runCli(['spool', 'list'], { env: { CRONBEAT_DATA_DIR: dataDir } })).stdout).toBe('The spool is empty: no pulse is waiting to be delivered.\n');
    await runCli(['ping', 'abc', '--start', '--rid', 'r1', '--url', `http://127.0.0.1:${await closedPort()}`], { env: { CRONBEAT_DATA_DIR: dataDir } });
    const table = await runCli(['spool', 'list'], { env: { CRONBEAT_DATA_DIR: dataDir } });
    expect(table.stdout.split('\n')[0]).toMatch(/^SENT AT\s+TOKEN\s+PULSE\s+RID\s+BODY BYTES\s+URL$/);
    expect(table.stdout).toMatch(/abc\s+start\s+r1/);
  });
});

describe('ping and run replay only their own agent', () => {
  it('leave pulses meant for another agent to `spool flush`, so a wrong --url once never slows jobs down', async () => {
    const agent = await startTestAgent();
    stopLater.push(() => agent.stop());
    const monitor = await createMonitor(agent);
    const dataDir = tempFolder();
    await runCli(['ping', monitor.token, '--url', `http://127.0.0.1:${await closedPort()}`], { env: { CRONBEAT_DATA_DIR: dataDir } });

    const ping = await runCli(['ping', monitor.token, '--url', agent.url], { env: { CRONBEAT_DATA_DIR: dataDir } });
    expect(ping).toMatchObject({ status: 0, stderr: '' });
    expect(await pulsesOf(agent, monitor.id)).toHaveLength(1);
    expect(await spoolRows(dataDir)).toHaveLength(1);

    const flushed = await runCli(['spool', 'flush', '--url', agent.url], { env: { CRONBEAT_DATA_DIR: dataDir } });
    expect(flushed.stdout).toBe('Delivered 1 pulse; 0 still waiting.\n');
    expect(await pulsesOf(agent, monitor.id)).toHaveLength(2);
  });
});
