import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli } from '../helpers/cli';

// `monitor show` says a maintenance window under way over the monitor, as its dashboard page does.
let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

describe('cronbeat monitor show during maintenance', () => {
  it('says until when no alerts are raised, naming the window; nothing when none is under way', async () => {
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, TZ: 'UTC' };
    const monitor = await (await agent.api('/api/monitors', { method: 'POST', json: { name: 'db-dump', timezone: 'UTC', schedule: '0 3 * * *', duration: 30, tags: ['db'] } })).json();
    const quiet = await runCli(['monitor', 'show', 'db-dump'], { env });
    expect(quiet.status).toBe(0);
    expect(quiet.stdout).not.toContain('Maintenance');

    const until = new Date(Math.ceil((Date.now() + 2 * 3_600_000) / 60_000) * 60_000);
    const window = { name: 'db upgrade', starts_at: new Date(Date.now() - 60_000).toISOString(), ends_at: until.toISOString(), tags: ['db'] };
    expect((await agent.api('/api/maintenance-windows', { method: 'POST', json: window })).status).toBe(201);
    const shown = await runCli(['monitor', 'show', String(monitor.id)], { env });
    expect(shown.status).toBe(0);
    const line = shown.stdout.split('\n').find((l) => l.startsWith('Maintenance:'));
    expect(line).toMatch(/^Maintenance: +until .*\(db upgrade\): no alerts; pulses are still recorded, then it waits for its next run$/);
    expect(line).toContain(`${String(until.getUTCHours()).padStart(2, '0')}:${String(until.getUTCMinutes()).padStart(2, '0')}`);
    // --json stays the monitor as the API gives it.
    const json = JSON.parse((await runCli(['monitor', 'show', 'db-dump', '--json'], { env })).stdout);
    expect(json).toMatchObject({ id: monitor.id, name: 'db-dump' });
  });
});
