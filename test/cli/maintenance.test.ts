import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { createMonitor } from './agentFixtures';
import { runCli } from '../helpers/cli';

// Every test starts real node processes.
vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
let env: Record<string, string>;
beforeAll(async () => {
  agent = await startTestAgent();
  env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, TZ: 'UTC' };
});
afterAll(() => agent.stop());

describe('cronbeat maintenance', () => {
  it('adds a one-off window for a monitor named by name, lists it as under way, and removes it', async () => {
    const monitor = await createMonitor(agent, 'cli maintained job');
    const added = await runCli(['maintenance', 'add', '--for', '2h', '--monitor', 'cli maintained job', '--name', 'upgrade'], { env });
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    const id = Number(/^(\d+) "upgrade": /.exec(added.stdout)?.[1]);
    expect(added.stdout).toMatch(new RegExp(`monitor ${monitor.id}; in maintenance until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC`));

    const listed = await runCli(['maintenance', 'list', '--monitor', String(monitor.id), '--active', '--json'], { env });
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id, kind: 'one_off', active: true, monitor_ids: [monitor.id] }]);

    const removed = await runCli(['maintenance', 'remove', String(id)], { env });
    expect(removed).toMatchObject({ status: 0, stdout: `Removed maintenance window ${id}.\n` });
    expect((await runCli(['maintenance', 'list'], { env })).stdout).toBe('No maintenance windows.\n');
    const again = await runCli(['maintenance', 'remove', String(id)], { env });
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/not found/i);
  });

  it('adds a recurring window for a tag', async () => {
    const added = await runCli(['maintenance', 'add', '--schedule', '0 3 * * 0', '--timezone', 'Europe/Paris', '--duration', '60', '--tag', 'db'], { env });
    expect(added.status).toBe(0);
    expect(added.stdout).toMatch(/^\d+: "0 3 \* \* 0" Europe\/Paris, 60 min; tag db; next \d{4}-\d\d-\d\d \d\d:\d\d UTC\n$/);
  });

  it('refuses mistakes in words: the API names the field, usage errors exit 2, a misspelt action gets a suggestion', async () => {
    const zero = await runCli(['maintenance', 'add', '--schedule', '0 3 * * *', '--timezone', 'UTC', '--duration', '0'], { env });
    expect(zero.status).toBe(1);
    expect(zero.stderr).toContain('The duration field must be between 1 and 10080.');
    const zone = await runCli(['maintenance', 'add', '--schedule', '0 3 * * *', '--timezone', 'Mars/Base', '--duration', '30'], { env });
    expect(zone.status).toBe(1);
    expect(zone.stderr).toContain('The timezone field must be a valid time zone');
    const both = await runCli(['maintenance', 'add', '--for', '1h', '--schedule', '0 3 * * *'], { env });
    expect(both.status).toBe(2);
    const noEnd = await runCli(['maintenance', 'add', '--from', '22:00'], { env });
    expect(noEnd.status).toBe(2);
    expect(noEnd.stderr).toContain('--until');
    const badFrom = await runCli(['maintenance', 'add', '--from', 'soon', '--for', '1h'], { env });
    expect(badFrom.status).toBe(2);
    expect(badFrom.stderr).toContain('--from must be a time');
    const unknown = await runCli(['maintenance', 'add', '--for', '1h', '--monitor', 'no such job'], { env });
    expect(unknown.status).toBe(1);
    const typo = await runCli(['maintenance', 'lsit'], { env });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('list');
    expect(agent.store.maintenanceWindows.list(1).filter((w) => w.schedule === null)).toEqual([]);
  });
});
