import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli, tempFolder } from '../helpers/cli';
import { createMonitor, pulsesOf } from './agentFixtures';

/*
 * `--url "$AGENT"` or `--data-dir "$DIR"` with the variable unset reads as the option left out:
 * the command went to the default agent or data folder, where `monitor delete NAME --yes` or
 * `token revoke 3` acts on another agent's monitor or key of that name. An empty value is a usage
 * error naming the option; `cronbeat run` runs its job and says it.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

describe('an option given an empty value', () => {
  const cases: [string, string[], string][] = [
    ['monitor delete --url ""', ['monitor', 'delete', 'nightly backup', '--yes', '--url', ''], '--url'],
    ['monitor list --url=', ['monitor', 'list', '--url='], '--url'],
    ['token revoke --data-dir ""', ['token', 'revoke', '1', '--data-dir', ''], '--data-dir'],
    ['notifications --follow --url ""', ['notifications', '--follow', '--url', ''], '--url'],
    ['timers list --root ""', ['timers', 'list', '--root', ''], '--root'],
    ['crontab watch --token ""', ['crontab', 'watch', '--server', 'web-1', '--once', '--token', ''], '--token'],
  ];
  for (const [what, args, option] of cases) {
    it(`${what}: a usage error naming ${option}, nothing done`, async () => {
      // The agent's own folder and a key of it in the environment: what an empty option fell back to.
      const result = await runCli(args, { env: { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token, CRONBEAT_DATA_DIR: agent.dataDir } });
      expect(result.stderr).toBe(`cronbeat: ${option} is empty (an unset variable?): give it a value, or leave it out for the default.\n`);
      expect(result.status).toBe(2);
    });
  }

  it('run --url "": the job runs, unmonitored, and the one line says why', async () => {
    const monitor = await createMonitor(agent, 'empty url');
    const result = await runCli(['run', '--url', '', monitor.token, '--', '/bin/sh', '-c', 'echo ran; exit 5'], {
      env: { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: tempFolder() },
    });
    expect(result.stdout).toBe('ran\n');
    expect(result.status).toBe(5);
    expect(result.stderr).toBe('cronbeat: not monitoring this run: --url is empty (an unset variable?): give it a value, or leave it out for the default\n');
    expect(await pulsesOf(agent, monitor.id)).toEqual([]);
  });
});
