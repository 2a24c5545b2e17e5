import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { createMonitor } from './agentFixtures';
import { runCli } from '../helpers/cli';

// Real node processes.
vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
let env: Record<string, string>;
beforeAll(async () => {
  agent = await startTestAgent();
  env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token };
});
afterAll(() => agent.stop());

describe('cronbeat monitor hand', () => {
  it("hands a monitor made in the dashboard to a key's line, which may then pulse it by its slug", async () => {
    const monitor = await createMonitor(agent, 'Weekly Report');
    const key = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now: Date.now() });
    const line = () => fetch(`${agent.url}/api/pulse/key/${key.token}/weekly-report?create=1&schedule=@weekly`);
    expect((await line()).status).toBe(409);
    const handed = await runCli(['monitor', 'hand', 'Weekly Report', '--key', String(key.id)], { env });
    expect(handed).toMatchObject({ status: 0, stderr: '', stdout: `"Weekly Report" now belongs to the line of key ${key.id}: its slug is weekly-report.\n` });
    expect((await line()).status).toBe(200);
    expect(agent.store.monitors.find(1, monitor.id)).toMatchObject({ slug: 'weekly-report', line_key_id: key.id });
  });

  it('hands several monitors at once (after an upgrade, every monitor a line made before is no key\'s)', async () => {
    const first = await createMonitor(agent, 'Sync A');
    const second = await createMonitor(agent, 'Sync B');
    const key = agent.store.apiTokens.create({ companyId: 1, name: 'web-02', scope: 'ping', now: Date.now() });
    const handed = await runCli(['monitor', 'hand', String(first.id), 'Sync B', '--key', String(key.id)], { env });
    expect(handed.status).toBe(0);
    expect(handed.stdout.trim().split('\n')).toHaveLength(2);
    for (const { id } of [first, second]) expect(agent.store.monitors.find(1, id)!.line_key_id).toBe(key.id);
  });

  it('says in one line what is wrong: no --key (2), a key that cannot have monitors (1)', async () => {
    const monitor = await createMonitor(agent, 'Other job');
    const missing = await runCli(['monitor', 'hand', String(monitor.id)], { env });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--key ID/);
    const badge = agent.store.apiTokens.create({ companyId: 1, name: 'readme', scope: 'badge', now: Date.now() });
    const refused = await runCli(['monitor', 'hand', String(monitor.id), '--key', String(badge.id)], { env });
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('The key id field must name a live ping or full key of yours');
  });
});
