import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startAgent } from '../../agent/agent';
import { RETRY_DELAYS_MS } from '../../agent/client/connection/http';
import { DROPPED_OUTPUT, SPOOL_MAX_BYTES, SPOOL_MAX_PULSES } from '../../agent/client/spool/spool';
import { closedPort, finished, runCli, spawnCli, startServe, tempFolder } from '../helpers/cli';
import { fakeTimeEnv, hasFakeTime } from '../helpers/fakeTime';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { createMonitor, pulsesOf } from './agentFixtures';

// Pulses never lost nor doubled: real agents, real CLI processes, real spool files.
vi.setConfig({ testTimeout: 60_000 });

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function liveAgent(): Promise<TestAgent> {
  const agent = await startTestAgent();
  cleanups.push(() => agent.stop());
  return agent;
}

/** A spool line as the CLI writes it. */
function spoolLine(baseUrl: string, token: string, extra: { sentAt?: unknown; body?: unknown; signal?: unknown } = {}): string {
  const { sentAt = Date.now(), body = '', signal = 'success' } = extra;
  return JSON.stringify({ id: randomUUID(), sentAt, baseUrl, pulse: { token, signal, body, key: randomUUID() } });
}

async function spoolRows(env: Record<string, string>, user?: { uid: number; gid: number }) {
  const listed = await runCli(['spool', 'list', '--json'], { env, user });
  expect(listed.status).toBe(0);
  return JSON.parse(listed.stdout) as Array<{ token: string; body_bytes: number; sent_at: string }>;
}

const portOf = (url: string) => Number(new URL(url).port);

/** The local ports of the TCP connections `pid` holds to 127.0.0.1:`port` now (the kernel's own table, read from outside). */
function connectionsOf(pid: number, port: number): string[] {
  const sockets = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    const target = (() => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        return ''; // closed meanwhile
      }
    })();
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) sockets.add(inode);
  }
  const remote = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns[2] === remote && sockets.has(columns[9]))
    .map((columns) => columns[1]);
}

/** Until `pid` has made a second connection to `port`: its first try given up, its retry sent. */
async function secondConnection(pid: number, port: number): Promise<void> {
  const seen = new Set<string>();
  for (const deadline = Date.now() + 30_000; seen.size < 2; await sleep(20)) {
    if (Date.now() > deadline) throw new Error(`no second connection to port ${port} within 30 s (seen: ${[...seen].join(', ')})`);
    for (const local of connectionsOf(pid, port)) seen.add(local);
  }
}

describe('a retried pulse is stored once (7)', () => {
  it.skipIf(!hasFakeTime)('a ping whose first try times out against a frozen agent is stored once, and answered', async () => {
    const dataDir = tempFolder();
    const apiToken = (await runCli(['token', 'create', '--data-dir', dataDir])).stdout.trim();
    const serve = await startServe(['--data-dir', dataDir, '--no-popups']);
    cleanups.push(async () => void (await serve.stop()));
    const created = await fetch(`${serve.url}/api/monitors`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'frozen', timezone: 'UTC', schedule: '* * * * *', duration: 5 }),
    });
    const monitor = (await created.json()) as { id: number; token: string };

    // A laptop lid: the agent is stopped while the ping's first try waits 5 s and gives up; the
    // second try is queued too, and both reach the agent when it resumes. The ping's clock runs 4
    // times faster (its 5 s pass in about 1.3), and the agent resumes once the second try has connected.
    process.kill(serve.child.pid!, 'SIGSTOP');
    const child = spawnCli(['ping', monitor.token, '--url', serve.url], { env: { CRONBEAT_DATA_DIR: tempFolder(), ...fakeTimeEnv(new Date().toISOString(), 4) } });
    const ping = finished(child);
    await secondConnection(child.pid!, portOf(serve.url));
    process.kill(serve.child.pid!, 'SIGCONT');
    const result = await ping;
    expect(result).toMatchObject({ status: 0, stderr: '' });

    await sleep(200); // the abandoned first try is answered after the second
    const history = await fetch(`${serve.url}/api/monitors/${monitor.id}/pulses`, { headers: { Authorization: `Bearer ${apiToken}` } });
    expect(((await history.json()) as { total: number }).total).toBe(1);
  });
});

describe('a pulse counts for its event (8)', () => {
  it('a 5 ms job spooled while the agent was down is a run of a few ms, its start stamped when the job started', async () => {
    const agent = await startTestAgent();
    const monitor = await createMonitor(agent);
    const { port, dataDir: agentDir } = agent;
    await agent.close();

    const env = { CRONBEAT_URL: `http://127.0.0.1:${port}`, CRONBEAT_DATA_DIR: tempFolder() };
    const before = Date.now();
    const run = await runCli(['run', monitor.token, '--', 'true'], { env });
    const ranUntil = Date.now();
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/saved to the spool/);

    const restarted = await startAgent({ dataDir: agentDir, port, log: () => {} });
    cleanups.push(async () => {
      await restarted.close();
      rmSync(agentDir, { recursive: true, force: true });
    });
    expect((await runCli(['spool', 'flush'], { env })).status).toBe(0);
    const [start, end] = await pulsesOf(agent, monitor.id);
    expect(start.kind).toBe('start');
    expect(end).toMatchObject({ kind: 'success', rid: start.rid });
    // The old sender waited for the start's three tries (the retry delays, 1.25 s) before stamping
    // the end: a run of `true` measured longer than those waits is that. (A bound of a few hundred
    // ms measured a busy machine's process start too.)
    const retryWaits = RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);
    expect(end.duration_ms).toBeGreaterThanOrEqual(0);
    expect(end.duration_ms).toBeLessThan(retryWaits);
    expect(Date.parse(end.received_at) - Date.parse(start.received_at)).toBeLessThan(retryWaits);
    // Stamped while the job ran, not when the spool was flushed after the agent came back.
    expect(Date.parse(start.received_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(end.received_at)).toBeLessThanOrEqual(ranUntil);
  });
});

describe('one bad spool line never stops delivery (9)', () => {
  it('ping delivers the good pulses and its own, sets the bad lines aside with one warning, and spool list still works', async () => {
    const agent = await liveAgent();
    const monitor = await createMonitor(agent);
    const dataDir = tempFolder();
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: dataDir };
    const bad = [
      spoolLine(agent.url, monitor.token, { sentAt: 1e20 }),
      spoolLine(agent.url, monitor.token, { body: 42 }),
      '{"id":"half a line from a writer that was kil',
      spoolLine(agent.url, monitor.token, { signal: 'sucess' }),
    ];
    // A good line as the previous version wrote it (no idempotency key): still delivered.
    const good = JSON.stringify({ id: randomUUID(), sentAt: Date.now() - 60_000, baseUrl: agent.url, pulse: { token: monitor.token, signal: 'success', body: 'from the spool' } });
    writeFileSync(join(dataDir, 'spool.jsonl'), [bad[0], good, ...bad.slice(1)].map((line) => `${line}\n`).join(''));

    const listed = await runCli(['spool', 'list', '--json'], { env });
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toHaveLength(1);
    expect(listed.stderr).toMatch(/^cronbeat: skipped 4 unreadable lines of .*spool\.jsonl; the next delivery sets them aside/);

    const ping = await runCli(['ping', monitor.token, '--message', 'now'], { env });
    expect(ping.status).toBe(0);
    expect(ping.stderr).toBe(`cronbeat: set aside 4 unreadable spool lines in ${join(dataDir, 'spool.rejected.jsonl')}\n`);
    expect((await pulsesOf(agent, monitor.id)).map((p) => p.body)).toEqual(['from the spool', 'now']);
    expect(readFileSync(join(dataDir, 'spool.rejected.jsonl'), 'utf8')).toBe(bad.map((line) => `${line}\n`).join(''));
    expect(existsSync(join(dataDir, 'spool.jsonl'))).toBe(false);

    const again = await runCli(['ping', monitor.token], { env });
    expect(again).toMatchObject({ status: 0, stderr: '' });
  });

  it('a bad line does not block the pulses behind it while the agent is down either', async () => {
    const dataDir = tempFolder();
    const env = { CRONBEAT_URL: `http://127.0.0.1:${await closedPort()}`, CRONBEAT_DATA_DIR: dataDir };
    writeFileSync(join(dataDir, 'spool.jsonl'), `${spoolLine(env.CRONBEAT_URL, 'tok', { sentAt: 1e20 })}\n`);
    const ping = await runCli(['ping', 'tok'], { env });
    expect(ping.status).toBe(0);
    expect(ping.stderr).toMatch(/pulse saved to the spool/);
    expect(ping.stderr).toMatch(/set aside 1 unreadable spool line in/);
    expect(await spoolRows(env)).toHaveLength(1);
  });
});

describe('the spool is bounded (10)', () => {
  it('past its bytes it drops the oldest outputs first, keeps every pulse, and warns once', async () => {
    const dataDir = tempFolder();
    const env = { CRONBEAT_URL: `http://127.0.0.1:${await closedPort()}`, CRONBEAT_DATA_DIR: dataDir };
    const output = 'x'.repeat(100 * 1024);
    const lines = Array.from({ length: 100 }, (_, i) => spoolLine(env.CRONBEAT_URL, `job-${i}`, { body: output }));
    writeFileSync(join(dataDir, 'spool.jsonl'), lines.map((line) => `${line}\n`).join(''));

    const first = await runCli(['ping', 'job-100', '--message', 'newest'], { env });
    expect(first.status).toBe(0);
    const warnings = first.stderr.split('\n').filter((line) => /spool is full/.test(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/dropped the output of \d+ oldest pulses; start the agent/);
    expect(statSync(join(dataDir, 'spool.jsonl')).size).toBeLessThanOrEqual(SPOOL_MAX_BYTES);

    const second = await runCli(['ping', 'job-101'], { env });
    expect(second.stderr).not.toMatch(/spool is full/);
    const rows = await spoolRows(env);
    expect(rows.map((row) => row.token)).toEqual([...Array.from({ length: 102 }, (_, i) => `job-${i}`)]);
    expect(rows[0].body_bytes).toBe(Buffer.byteLength(DROPPED_OUTPUT));
    expect(rows[99].body_bytes).toBe(100 * 1024);
    expect(rows[100].body_bytes).toBe(6);
  });

  it(`past ${SPOOL_MAX_PULSES} pulses it drops the oldest`, async () => {
    const dataDir = tempFolder();
    const env = { CRONBEAT_URL: `http://127.0.0.1:${await closedPort()}`, CRONBEAT_DATA_DIR: dataDir };
    const count = SPOOL_MAX_PULSES + 500;
    const lines = Array.from({ length: count }, (_, i) => spoolLine(env.CRONBEAT_URL, `job-${i}`));
    writeFileSync(join(dataDir, 'spool.jsonl'), lines.map((line) => `${line}\n`).join(''));
    const ping = await runCli(['ping', 'newest'], { env });
    expect(ping.stderr).toMatch(/spool is full .* and \d+ oldest pulses/);
    const rows = await spoolRows(env);
    expect(rows.length).toBeLessThanOrEqual(SPOOL_MAX_PULSES);
    expect(rows.at(-2)!.token).toBe(`job-${count - 1}`);
    expect(rows.at(-1)!.token).toBe('newest');
  });
});

describe('sending never depends on the data folder (11)', () => {
  const nobody = { uid: 65534, gid: 65534 };
  /** A temporary folder the other user may use, as /tmp is. */
  const sharedTemp = () => {
    const dir = tempFolder();
    chmodSync(dir, 0o1777);
    return dir;
  };

  it('a job of a user without a home is monitored while the agent is up', async () => {
    const agent = await liveAgent();
    const monitor = await createMonitor(agent);
    const env = { CRONBEAT_URL: agent.url, HOME: '/nonexistent', XDG_DATA_HOME: '', TMPDIR: sharedTemp() };
    const run = await runCli(['run', monitor.token, '--', 'sh', '-c', 'echo ran'], { env, user: nobody });
    expect(run).toMatchObject({ status: 0, stdout: 'ran\n', stderr: '' });
    const ping = await runCli(['ping', monitor.token], { env, user: nobody });
    expect(ping).toMatchObject({ status: 0, stderr: '' });
    expect((await pulsesOf(agent, monitor.id)).map((p) => p.kind)).toEqual(['start', 'success', 'success']);
  });

  it('with the agent down, a shared root-owned folder gives way to a private temporary one, said once', async () => {
    const shared = sharedTemp(); // root's, 1777: the job's user cannot make it private
    const temp = sharedTemp();
    const env = { CRONBEAT_URL: `http://127.0.0.1:${await closedPort()}`, CRONBEAT_DATA_DIR: shared, TMPDIR: temp };
    const run = await runCli(['run', 'tok', '--', 'true'], { env, user: nobody });
    expect(run.status).toBe(0);
    const told = run.stderr.split('\n').filter((line) => line.includes(`kept in ${join(temp, 'cronbeat-65534')} because the data folder cannot be used`));
    expect(told).toHaveLength(1);
    expect(statSync(join(temp, 'cronbeat-65534')).mode & 0o777).toBe(0o700);
    expect(existsSync(join(shared, 'spool.jsonl'))).toBe(false);
    expect((await spoolRows(env, nobody)).map((row) => row.token)).toEqual(['tok', 'tok']);
  });

  it('says what was not kept, and exits 1, when neither sending nor keeping works', async () => {
    const env = { CRONBEAT_URL: `http://127.0.0.1:${await closedPort()}`, HOME: '/nonexistent', XDG_DATA_HOME: '', TMPDIR: '/nonexistent/tmp' };
    const ping = await runCli(['ping', 'tok'], { env, user: nobody });
    expect(ping.status).toBe(1);
    expect(ping.stderr).toMatch(/^cronbeat: pulse not sent and not kept: cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\); the data folder cannot be used \(EACCES on \/nonexistent\/\.local\/share\/cronbeat\), nor a temporary folder \(EACCES on \/nonexistent\/tmp\/cronbeat-65534\)\n$/);
    const run = await runCli(['run', 'tok', '--', 'sh', '-c', 'exit 3'], { env, user: nobody });
    expect(run.status).toBe(3);
    expect(run.stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^cronbeat: start pulse not sent and not kept: .*; the data folder cannot be used \(EACCES/),
      expect.stringMatching(/^cronbeat: end pulse not sent and not kept: .*; nowhere to keep it \(see above\)$/),
    ]);
  });
});

