import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli, tempFolder } from '../helpers/cli';
import { createMonitor, pulsesOf } from './agentFixtures';

/*
 * Options written before `run` (`cronbeat --url URL run TOKEN -- backup.sh`, as many tools take
 * them, or a `-v` for "verbose"): the line was a usage error (exit 2), or printed the version or
 * the help and exited 0, and the job never ran. A line that holds a job runs it, as on any other
 * mistake of our words; the options are read as run's own.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

const job = ['--', 'sh', '-c', 'echo "job ran"; exit 6'];

describe('cronbeat OPTIONS run TOKEN -- job', () => {
  it('--url URL before run: the job runs, reported to that agent, with its own status', async () => {
    const monitor = await createMonitor(agent, 'url first');
    const result = await runCli(['--url', agent.url, 'run', monitor.token, ...job], { env: { CRONBEAT_DATA_DIR: tempFolder() } });
    expect(result).toMatchObject({ status: 6, stdout: 'job ran\n' });
    expect(result.stderr).toBe('cronbeat: options go after the command (`cronbeat run --url …`); this line is read so, and its job runs\n');
    await expect.poll(async () => (await pulsesOf(agent, monitor.id)).map((p) => [p.kind, p.exit_code])).toEqual([
      ['start', null],
      ['fail', 6],
    ]);
  });

  for (const option of ['-v', '--version', '--help', '-q']) {
    it(`${option} before run: the job runs, with its own status`, async () => {
      const monitor = await createMonitor(agent, `${option} first`);
      const result = await runCli([option, 'run', monitor.token, ...job], { env: { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: tempFolder() } });
      expect(result).toMatchObject({ status: 6, stdout: 'job ran\n' });
      expect(result.stderr).toMatch(new RegExp(`^cronbeat: options go after the command \\(\`cronbeat run ${option} …\`\\); this line is read so, and its job runs\n`));
    });
  }

  it('with no job in the line, options before a command are still a usage error', async () => {
    const result = await runCli(['--url', agent.url, 'run', 'some-token'], { env: { CRONBEAT_DATA_DIR: tempFolder() } });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^cronbeat: cronbeat has no option --url\. Options go after the command/);
    const other = await runCli(['--url', agent.url, 'spool', 'list'], { env: { CRONBEAT_DATA_DIR: tempFolder() } });
    expect(other.status).toBe(2);
  });
});
