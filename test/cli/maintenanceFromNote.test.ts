import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli } from '../helpers/cli';

// What `maintenance add` says it assumed names the option the user gave.
vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

describe('cronbeat maintenance add --from without a zone', () => {
  it('says which zone --from was read in as --from, not as --until', async () => {
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, TZ: 'Europe/Paris' };
    const added = await runCli(['maintenance', 'add', '--from', '2099-03-08 22:00', '--until', '2099-03-08 23:30', '--tag', 'db'], { env });
    expect(added.status).toBe(0);
    expect(added.stderr.split('\n').filter(Boolean)).toEqual([
      'cronbeat: --from 2099-03-08 22:00 has no zone: it is taken in this machine\'s zone, Europe/Paris.',
      'cronbeat: --until 2099-03-08 23:30 has no zone: it is taken in this machine\'s zone, Europe/Paris.',
    ]);
    const [window] = (await (await agent.api('/api/maintenance-windows')).json()).data;
    expect(window).toMatchObject({ starts_at: '2099-03-08T21:00:00.000000Z', ends_at: '2099-03-08T22:30:00.000000Z', tags: ['db'] });
  });

  it('lists a recurring window of several calendar events as monitor show lists such a schedule, the events joined by "; "', async () => {
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, TZ: 'UTC' };
    const made = await agent.api('/api/maintenance-windows', { method: 'POST', json: { name: 'weekend', schedule: 'Sat 03:00\nSun 03:00', timezone: 'UTC', duration: 30 } });
    expect(made.status).toBe(201);
    const listed = await runCli(['maintenance', 'list'], { env });
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/^\d+ "weekend": "Sat 03:00; Sun 03:00" UTC, 30 min; every monitor; next /m);
  });
});
