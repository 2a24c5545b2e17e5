import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli } from '../helpers/cli';

// `monitor create` takes the options of `run --name`, --max-runtime among them; `edit` changes it and `show` says it.
vi.setConfig({ testTimeout: 30_000 });

let agent: TestAgent;
let env: Record<string, string>;
beforeAll(async () => {
  agent = await startTestAgent();
  env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, TZ: 'UTC' };
});
afterAll(() => agent.stop());

const apiMonitor = async (name: string) => (await (await agent.api('/api/monitors')).json()).find((m: { name: string }) => m.name === name);

describe('a max run time from the CLI', () => {
  it('is set by monitor create --max-runtime, as run --name sets it, and shown', async () => {
    const made = await runCli(['monitor', 'create', 'long sync', '--schedule', '*/10 * * * *', '--max-runtime', '15'], { env });
    expect(made.stderr).toBe('');
    expect(made.status).toBe(0);
    expect(made.stdout).toMatch(/^Max run time: +15 min after a start, then it is stuck$/m);
    expect(await apiMonitor('long sync')).toMatchObject({ max_runtime: 15 });
  });

  it('is changed and taken off by monitor edit --max-runtime MIN|none', async () => {
    await runCli(['monitor', 'create', 'edited sync', '--schedule', '*/10 * * * *'], { env });
    const set = await runCli(['monitor', 'edit', 'edited sync', '--max-runtime', '30'], { env });
    expect(set.stderr).toBe('');
    expect(set.status).toBe(0);
    expect((await apiMonitor('edited sync')).max_runtime).toBe(30);
    const shown = await runCli(['monitor', 'show', 'edited sync'], { env });
    expect(shown.stdout).toMatch(/^Max run time: +30 min after a start, then it is stuck$/m);
    const off = await runCli(['monitor', 'edit', 'edited sync', '--max-runtime', 'none'], { env });
    expect(off.status).toBe(0);
    expect((await apiMonitor('edited sync')).max_runtime).toBeUndefined();
    expect(off.stdout).not.toContain('Max run time');
  });

  it('refuses what run --name refuses, in the same words, and changes nothing', async () => {
    for (const bad of ['0', '1.5', '525601', 'ten']) {
      const made = await runCli(['monitor', 'create', `bad ${bad}`, '--schedule', '*/10 * * * *', '--max-runtime', bad], { env });
      expect(made.status).toBe(2);
      expect(made.stderr).toBe(`cronbeat: --max-runtime (the minutes a started run may take before it is stuck) must be a whole number of minutes from 1 to 525600, not "${bad}".\n`);
      expect(await apiMonitor(`bad ${bad}`)).toBeUndefined();
    }
    const edit = await runCli(['monitor', 'edit', 'long sync', '--max-runtime', '0'], { env });
    expect(edit.status).toBe(2);
    expect((await apiMonitor('long sync')).max_runtime).toBe(15);
  });
});
