import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli, spawnCli, finished, tempFolder } from '../helpers/cli';

/*
 * An API key with a carriage return or a line break in it: a key file written on Windows
 * (`CRONBEAT_API_TOKEN=$(cat key.txt)` keeps the "\r"), an env file with a stray space. Node
 * refuses such a header value, and the CLI said "cannot reach http://… (ERR_INVALID_CHAR)", which
 * sends the user after the network. It names the variable or the option and what is wrong with it.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

describe('an API key holding a control character or a space', () => {
  const commands: [string, string[]][] = [
    ['monitor list', ['monitor', 'list']],
    ['maintenance list', ['maintenance', 'list']],
    ['crontab watch', ['crontab', 'watch', '--server', 'web-1', '--once', '--file', '/dev/null']],
    ['timers watch', ['timers', 'watch', '--server', 'web-1', '--once']],
  ];
  for (const [name, args] of commands) {
    it(`${name}: CRONBEAT_API_TOKEN with a carriage return is named, exit 2`, async () => {
      const result = await runCli([...args, '--url', agent.url], { env: { CRONBEAT_API_TOKEN: `${agent.token}\r`, CRONBEAT_DATA_DIR: tempFolder() } });
      expect(result.stderr).toBe(
        'cronbeat: CRONBEAT_API_TOKEN holds a carriage return (U+000D), which no API key has: set it to the key alone, as `cronbeat token create` printed it.\n',
      );
      expect(result.status).toBe(2);
    });
  }

  it('notifications --follow --token with a line break is named, exit 2', async () => {
    const result = await finished(spawnCli(['notifications', '--follow', '--url', agent.url, '--token', `${agent.token}\n`]));
    expect(result.stderr).toBe('cronbeat: --token holds a line break (U+000A), which no API key has: set it to the key alone, as `cronbeat token create` printed it.\n');
    expect(result.status).toBe(2);
  });

  it('run --name: the job runs, and the one line says what is wrong with the key (not a 401 from the agent)', async () => {
    const result = await runCli(['run', '--name', 'windows key', '--schedule', '0 3 * * *', '--', '/bin/sh', '-c', 'echo ran; exit 3'], {
      env: { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: `${agent.token}\r`, CRONBEAT_DATA_DIR: tempFolder() },
    });
    expect(result.stdout).toBe('ran\n');
    expect(result.status).toBe(3);
    expect(result.stderr).toBe(
      'cronbeat: not monitoring this run: CRONBEAT_API_TOKEN holds a carriage return (U+000D), which no API key has: set it to the key alone, as `cronbeat token create` printed it\n',
    );
  });

  it('a trailing space is named too', async () => {
    const result = await runCli(['monitor', 'list', '--url', agent.url], { env: { CRONBEAT_API_TOKEN: `${agent.token} ` } });
    expect(result.stderr).toBe('cronbeat: CRONBEAT_API_TOKEN holds a space, which no API key has: set it to the key alone, as `cronbeat token create` printed it.\n');
    expect(result.status).toBe(2);
  });
});
