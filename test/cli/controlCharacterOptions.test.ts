import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempFolder } from '../helpers/cli';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';

/*
 * A name or identifier typed with a control character in it is a usage error before anything is
 * sent or stored; `cronbeat run` still runs its job, and the agent's refusal is its one line.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

describe('options that name things refuse control characters', () => {
  it('token create --name: a usage error, no token made', async () => {
    const dataDir = tempFolder();
    const result = await runCli(['token', 'create', '--name', 'laptop\u001b]52;c;aGk=\u0007', '--data-dir', dataDir]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('cronbeat: --name must not contain control characters (it has ESC (U+001B)).\n');
    const list = await runCli(['token', 'list', '--data-dir', dataDir]);
    expect(list.stdout).toContain('No tokens yet.');
  });

  it('monitor edit --name and crontab watch --server: a usage error before anything is sent', async () => {
    const env = { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token };
    const created = await agent.api('/api/monitors', { method: 'POST', json: { name: 'plain', schedule: '0 3 * * *', timezone: 'UTC', duration: 5 } });
    const { id } = (await created.json()) as { id: number };
    const edit = await runCli(['monitor', 'edit', String(id), '--name', 'x\u009b2J'], { env });
    expect(edit.status).toBe(2);
    expect(edit.stderr).toBe('cronbeat: --name must not contain control characters (it has U+009B).\n');
    const watch = await runCli(['crontab', 'watch', '--once', '--server', 'web\u0007', '--file', '/dev/null', '--data-dir', tempFolder()], { env });
    expect(watch.status).toBe(2);
    expect(watch.stderr).toBe('cronbeat: --server must not contain control characters (it has BEL (U+0007)).\n');
  });

  it('run --name with one still runs the job; the agent refuses the line and says so in one safe line', async () => {
    const ping = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now: Date.now() }).token;
    const result = await runCli(['run', '--name', 'nightly\u001b[2J', '--schedule', '0 3 * * *', '--', 'sh', '-c', 'echo ran; exit 3'], {
      env: { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: ping, CRONBEAT_DATA_DIR: tempFolder() },
    });
    expect(result.stdout).toBe('ran\n');
    expect(result.status).toBe(3);
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    expect(result.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(result.stderr).toContain('must not contain control characters');
    expect(agent.store.monitors.list(1).map((m) => m.name)).toEqual(['plain']);
  });
});
