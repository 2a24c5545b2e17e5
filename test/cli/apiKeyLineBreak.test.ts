import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli, spawnCli, finished, tempFolder } from '../helpers/cli';
import { createMonitor, pulsesOf } from './agentFixtures';

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

describe('a pulse URL given as the monitor token', () => {
  it('ping: named, exit 2, nothing sent or kept (it was kept, for an agent that refuses it)', async () => {
    const { token, id } = await createMonitor(agent, 'url as token');
    const dataDir = tempFolder();
    const result = await runCli(['ping', `${agent.url}/api/pulse/${token}`, '--url', agent.url, '--data-dir', dataDir]);
    expect(result.stderr).toBe('cronbeat: the monitor token is a URL: give the token alone (the last part of the pulse URL), as `cronbeat monitor show` prints it.\n');
    expect(result.status).toBe(2);
    expect(await pulsesOf(agent, id)).toEqual([]);
  });
});

describe('a monitor token holding a carriage return', () => {
  const said = 'the monitor token holds a carriage return (U+000D), which no token has: give the token alone, as `cronbeat monitor show` prints it';

  it('ping: named, exit 2, rather than the agent\'s "404 Monitor not found"', async () => {
    const { token } = await createMonitor(agent, 'windows token ping');
    const result = await runCli(['ping', `${token}\r`, '--url', agent.url, '--data-dir', tempFolder()]);
    expect(result.stderr).toBe(`cronbeat: ${said}.\n`);
    expect(result.status).toBe(2);
  });

  it('run: the job runs, and the one line names the carriage return', async () => {
    const monitor = await createMonitor(agent, 'windows token run');
    const result = await runCli(['run', `${monitor.token}\r`, '--url', agent.url, '--data-dir', tempFolder(), '--', '/bin/sh', '-c', 'echo ran; exit 3']);
    expect(result.stdout).toBe('ran\n');
    expect(result.status).toBe(3);
    expect(result.stderr).toBe(`cronbeat: not monitoring this run: ${said}\n`);
    expect(await pulsesOf(agent, monitor.id)).toEqual([]);
  });
});
