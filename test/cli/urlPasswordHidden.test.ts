import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { closedPort, runCli, tempFolder } from '../helpers/cli';

/*
 * An agent behind a proxy's basic auth is reached at `http://user:password@host`. What the CLI
 * writes about it (the spool's list and flush, crontab watch's refusals: cron mail, logs, a
 * journal) shows the password as ***, as `notifications --follow` does; the spool itself keeps
 * the whole URL, which it needs to deliver.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

const SECRET = 's3cret-pw';

describe('a --url with a password', () => {
  it('spool list and spool flush show it as ***', async () => {
    const dataDir = tempFolder();
    const down = `http://admin:${SECRET}@127.0.0.1:${await closedPort()}`;
    const ping = await runCli(['ping', '0b3c7a2e-8f7d-4a55-9b8e-3d2f1c0a9e11', '--url', down, '--data-dir', dataDir]);
    expect(ping.status).toBe(0);
    const list = await runCli(['spool', 'list', '--data-dir', dataDir]);
    expect(list.stdout).toContain(down.replace(SECRET, '***'));
    const flush = await runCli(['spool', 'flush', '--data-dir', dataDir]);
    expect(flush.stderr).toContain(down.replace(SECRET, '***'));
    for (const output of [ping, list, flush]) expect(output.stdout + output.stderr).not.toContain(SECRET);
  });

  it('crontab watch refused by the agent shows it as ***', async () => {
    const url = agent.url.replace('http://', `http://admin:${SECRET}@`);
    const result = await runCli(['crontab', 'watch', '--server', 'web-1', '--once', '--file', '/dev/null', '--url', url], {
      env: { CRONBEAT_API_TOKEN: 'cb_not-a-key', CRONBEAT_DATA_DIR: tempFolder() },
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`The agent at ${agent.url.replace('http://', 'http://admin:***@')} refused the API token`);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
  });
});
