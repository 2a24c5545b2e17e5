import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli, tempFolder } from '../helpers/cli';

// Real node processes, several seconds' worth on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

let agent: TestAgent;
let pingKey: string;
beforeAll(async () => {
  agent = await startTestAgent();
  pingKey = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now: Date.now() }).token;
});
afterAll(() => agent.stop());

const bySlug = (slug: string) => agent.store.monitors.list(1).filter((m) => m.slug === slug);

describe('--alert-after N', () => {
  it('run --name sets it on the line\'s monitor; a bad one is one line on stderr and the job still runs', async () => {
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: tempFolder(), CRONBEAT_API_TOKEN: pingKey };
    const ran = await runCli(['run', '--name', 'flaky-export', '--schedule', '*/10 * * * *', '--alert-after', '3', '--', 'true'], { env });
    expect(ran).toMatchObject({ status: 0, stderr: '' });
    expect(bySlug('flaky-export')[0].alert_after).toBe(3);
    const bad = await runCli(['run', '--name', 'flaky-export', '--schedule', '*/10 * * * *', '--alert-after', '0', '--', 'sh', '-c', 'exit 3'], { env });
    expect(bad.status).toBe(3);
    expect(bad.stderr.trim()).toBe('cronbeat: not monitoring this run: --alert-after must be a whole number from 1 to 100, not "0"');
    expect(bySlug('flaky-export')[0].alert_after).toBe(3);
  });

  it('monitor create and edit set it and show it; a bad one is refused in words naming the option', async () => {
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, TZ: 'UTC' };
    const made = await runCli(['monitor', 'create', 'cli flaky', '--schedule', '*/10 * * * *', '--alert-after', '3'], { env });
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    expect(made.stdout).toMatch(/^Alerts: +after 3 failures in a row$/m);
    // A failure short of the alert: failed, none sent yet, its next run still due.
    const token = JSON.parse((await runCli(['monitor', 'show', 'cli flaky', '--json'], { env })).stdout).token;
    expect((await fetch(`${agent.url}/api/pulse/${token}/fail`)).status).toBe(200);
    const failedOnce = await runCli(['monitor', 'show', 'cli flaky'], { env });
    expect(failedOnce.stdout).toMatch(/^Alerts: +after 3 failures in a row \(1 so far: none sent yet\)$/m);
    expect(failedOnce.stdout).not.toContain('waits for a success pulse');
    const edited = await runCli(['monitor', 'edit', 'cli flaky', '--alert-after', '1', '--json'], { env });
    expect(edited.status).toBe(0);
    expect(JSON.parse(edited.stdout)).not.toHaveProperty('alert_after');
    for (const bad of ['0', '101', 'abc']) {
      const refused = await runCli(['monitor', 'edit', 'cli flaky', '--alert-after', bad], { env });
      expect(refused.status, bad).toBe(2);
      expect(refused.stderr).toContain(`--alert-after (the failure in a row that alerts) must be a whole number from 1 to 100, not "${bad}".`);
    }
    const shown = await runCli(['monitor', 'show', 'cli flaky'], { env });
    expect(shown.stdout).toMatch(/^Alerts: +at the first failure$/m);
  });
});
