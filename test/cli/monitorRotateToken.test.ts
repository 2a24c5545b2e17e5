import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { createMonitor } from './agentFixtures';
import { closedPort, runCli, spawnCli, tempFolder } from '../helpers/cli';

/*
 * `cronbeat monitor rotate-token` and what a read-only key shows in a terminal, as users run
 * them: the built CLI as a child process, against a real agent.
 */

vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
let env: Record<string, string>;
let readOnlyEnv: Record<string, string>;
beforeAll(async () => {
  agent = await startTestAgent();
  env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token };
  const readOnly = agent.store.apiTokens.create({ companyId: 1, name: 'wall', scope: 'read-only', now: Date.now() }).token;
  readOnlyEnv = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: readOnly };
});
afterAll(() => agent.stop());

describe('cronbeat monitor rotate-token', () => {
  it('gives the monitor named a new token, prints it, and the old one is refused at once', async () => {
    const monitor = await createMonitor(agent, 'leaky backup');
    const result = await runCli(['monitor', 'rotate-token', 'leaky backup'], { env });
    expect(result.status, result.stderr).toBe(0);
    const token = agent.store.monitors.find(1, monitor.id)!.token;
    expect(token).not.toBe(monitor.token);
    expect(result.stdout).toBe(
      `New pulse token for "leaky backup" (id ${monitor.id}): ${token}\n` +
        `Pulse URL: ${agent.url}/api/pulse/${token}\n` +
        'The old token is refused from now on: put the new one in the crontab lines that ping this monitor by token.\n',
    );
    expect((await runCli(['ping', monitor.token, '--url', agent.url], { env: {} })).status).not.toBe(0);
    expect((await fetch(`${agent.url}/api/pulse/${monitor.token}`)).status).toBe(404);
    expect((await runCli(['ping', token, '--url', agent.url], { env: {} })).status).toBe(0);
  });

  it('by id, as JSON: the monitor as GET /api/monitors/{id} answers it', async () => {
    const monitor = await createMonitor(agent, 'json rotate');
    const result = await runCli(['monitor', 'rotate-token', String(monitor.id), '--json'], { env });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(await (await agent.api(`/api/monitors/${monitor.id}`)).json());
  });

  it('refuses a read-only key with the reason (exit 1), and an unknown monitor or a missing name', async () => {
    const monitor = await createMonitor(agent, 'kept token');
    const refused = await runCli(['monitor', 'rotate-token', String(monitor.id)], { env: readOnlyEnv });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/read-only key may only read/);
    expect(agent.store.monitors.find(1, monitor.id)!.token).toBe(monitor.token);
    const unknown = await runCli(['monitor', 'rotate-token', 'no such job'], { env });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/No monitor has the id or name "no such job"/);
    expect((await runCli(['monitor', 'rotate-token'], { env })).status).toBe(2);
    expect((await runCli(['monitor', '--help'], { env })).stdout).toContain('cronbeat monitor rotate-token ID|NAME');
  });
});

describe('a job line after its monitor\'s token was rotated', () => {
  it('forgets the remembered token the agent refuses, and learns the new one from its end pulse', async () => {
    const pingKey = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now: Date.now() }).token;
    const dataDir = tempFolder();
    const lineEnv = { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: dataDir, CRONBEAT_API_TOKEN: pingKey };
    const args = ['run', '--name', 'rotated-line', '--schedule', '0 3 * * *', '--', 'true'];
    expect((await runCli(args, { env: lineEnv })).status).toBe(0);
    const [made] = agent.store.monitors.list(1).filter((m) => m.slug === 'rotated-line');
    expect(readFileSync(join(dataDir, 'lines.json'), 'utf8')).toContain(made.token);

    expect((await runCli(['monitor', 'rotate-token', String(made.id)], { env })).status).toBe(0);
    const rotated = agent.store.monitors.find(1, made.id)!.token;
    const after = await runCli(args, { env: lineEnv });
    expect(after.status).toBe(0); // the job ran, and its status is its own
    expect(after.stderr).toMatch(/start pulse refused by the agent: 404/);
    const memory = readFileSync(join(dataDir, 'lines.json'), 'utf8');
    expect(memory).toContain(rotated);
    expect(memory).not.toContain(made.token);

    expect((await runCli(args, { env: lineEnv })).stderr).toBe('');
    const kinds = agent.store.pulses.page(made.id, 100, 0).map((p) => p.kind).reverse();
    expect(kinds).toEqual(['start', 'success', 'success', 'start', 'success']);
  });
});

describe('a pulse kept in a spool with the old token', () => {
  it('is refused when it is delivered after the rotation, and dropped with one line: it never reaches the monitor', async () => {
    const monitor = await createMonitor(agent, 'spooled before rotation');
    const spoolEnv = { CRONBEAT_DATA_DIR: tempFolder() };
    const kept = await runCli(['ping', monitor.token, '--fail', '--url', `http://127.0.0.1:${await closedPort()}`], { env: spoolEnv });
    expect(kept.stderr).toMatch(/pulse saved to the spool/);
    expect((await runCli(['monitor', 'rotate-token', String(monitor.id)], { env })).status).toBe(0);
    const flushed = await runCli(['spool', 'flush', '--url', agent.url], { env: spoolEnv });
    expect(flushed).toMatchObject({ status: 0, stdout: 'Delivered 0 pulses; 0 still waiting.\n' });
    expect(flushed.stderr).toBe(`cronbeat: dropped a spooled pulse for ${monitor.token}: the agent refused it (404 Monitor not found.)\n`);
    expect(agent.store.pulses.count(monitor.id)).toBe(0);
    expect(agent.store.monitors.find(1, monitor.id)!.is_alerted).toBe(0);
  });
});

describe('a read-only key in a terminal', () => {
  it('monitor show and list --json show no pulse token', async () => {
    const monitor = await createMonitor(agent, 'wall job');
    const shown = await runCli(['monitor', 'show', String(monitor.id)], { env: readOnlyEnv });
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/^Pulse URL: +hidden \(only a full key sees pulse tokens\)$/m);
    const listed = await runCli(['monitor', 'list', '--json'], { env: readOnlyEnv });
    expect(listed.stdout).not.toContain(monitor.token);
    expect(JSON.parse(listed.stdout).find((m: { id: number }) => m.id === monitor.id)).toMatchObject({ token: null, pulse_url: null });
  });

  it('notifications --follow --json prints monitor_token null', async () => {
    const monitor = await createMonitor(agent, 'followed job');
    const child = spawnCli(['notifications', '--follow', '--json', '--url', agent.url], { env: readOnlyEnv });
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const errors = createInterface({ input: child.stderr! })[Symbol.asyncIterator]();
    try {
      // It says on stderr once it follows; only then can a failure be counted on to reach it.
      for (let line = await errors.next(); !line.done && !String(line.value).includes('following'); line = await errors.next());
      expect((await fetch(`${agent.url}/api/pulse/${monitor.token}/fail`)).status).toBe(200);
      const printed = JSON.parse(String((await lines.next()).value));
      expect(printed.data).toMatchObject({ monitor_name: 'followed job', monitor_token: null });
      expect(JSON.stringify(printed)).not.toContain(monitor.token);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
