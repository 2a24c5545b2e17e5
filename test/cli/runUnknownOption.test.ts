import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli, tempFolder } from '../helpers/cli';
import { createMonitor } from './agentFixtures';

/*
 * An option `cronbeat run` does not know, before the monitor's token, in a line without `--`:
 * taken as an option with a value, it swallowed the token, the job's program became "the token" and
 * its first argument the command, so the job never ran. A monitor token is never the value of a
 * mistyped option: the job runs as written.
 */

let agent: TestAgent;
let token: string;
beforeAll(async () => {
  agent = await startTestAgent();
  token = (await createMonitor(agent, 'unknown option')).token;
});
afterAll(() => agent.stop());

/** A program on PATH (named without a slash, as crontab lines do) that counts its runs and prints its arguments. */
function countingJob(): { bin: string; runs: () => string } {
  const bin = tempFolder();
  const file = join(bin, 'runs');
  writeFileSync(join(bin, 'nightly-job'), `#!/bin/sh\necho ran >> ${file}\necho "args:$*"\nexit 7\n`);
  chmodSync(join(bin, 'nightly-job'), 0o755);
  return {
    bin,
    runs: () => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return '';
      }
    },
  };
}

describe('cronbeat run with an option it does not know before the token', () => {
  for (const option of ['--verbose', '-q']) {
    it(`${option} TOKEN nightly-job a b: the job runs once, with its arguments and its status`, async () => {
      const job = countingJob();
      const result = await runCli(['run', option, token, 'nightly-job', 'a', 'b'], {
        env: { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: tempFolder(), PATH: `${job.bin}:${process.env.PATH}` },
      });
      expect(job.runs()).toBe('ran\n');
      expect(result.stdout).toBe('args:a b\n');
      expect(result.status).toBe(7);
      expect(result.stderr).toBe(`cronbeat: not monitoring this run: unknown option ${option}\n`);
    });
  }
});
