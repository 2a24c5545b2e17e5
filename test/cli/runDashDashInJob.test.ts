import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { runCli, tempFolder } from '../helpers/cli';
import { createMonitor, pulsesOf } from './agentFixtures';

/*
 * A line without `--` before its command whose job has a `--` of its own (`kubectl exec pod --
 * /backup.sh`, `git checkout -- file`, `npm run build -- --prod`): the job's `--` was taken for
 * ours, and what followed it ran alone, here instead of in the pod, or without its program. The
 * first word that starts the command starts it with every word after it, `--` included.
 */

let agent: TestAgent;
let token: string;
let monitorId: number;
beforeAll(async () => {
  agent = await startTestAgent();
  const monitor = await createMonitor(agent, 'dash dash');
  token = monitor.token;
  monitorId = monitor.id;
});
afterAll(() => agent.stop());

/** A folder for PATH with `remote`, a program that prints its arguments one a line, and `local`, which must never run. */
function programs(): string {
  const bin = tempFolder();
  writeFileSync(join(bin, 'remote'), '#!/bin/sh\nfor a do echo "arg:$a"; done\nexit 5\n');
  writeFileSync(join(bin, 'local'), '#!/bin/sh\necho "local ran alone"\nexit 0\n');
  chmodSync(join(bin, 'remote'), 0o755);
  chmodSync(join(bin, 'local'), 0o755);
  return bin;
}

describe('cronbeat run whose job has a -- of its own, with none before the command', () => {
  const lines: Array<[string, (token: string) => string[]]> = [
    ['TOKEN remote exec pod -- local x', (t) => ['run', t, 'remote', 'exec', 'pod', '--', 'local', 'x']],
    ['TOKEN --url URL remote exec pod -- local x', (t) => ['run', t, '--url', agent.url, 'remote', 'exec', 'pod', '--', 'local', 'x']],
    ['--name N --schedule S remote exec pod -- local x', () => ['run', '--name', 'dash-line', '--schedule', '@daily', 'remote', 'exec', 'pod', '--', 'local', 'x']],
  ];
  for (const [line, args] of lines) {
    it(`run ${line}: the job is remote with every word, -- included`, async () => {
      const result = await runCli(args(token), {
        env: { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: tempFolder(), CRONBEAT_API_TOKEN: 'cb_notakey', PATH: `${programs()}:${process.env.PATH}` },
      });
      expect(result.stdout).toBe('arg:exec\narg:pod\narg:--\narg:local\narg:x\n');
      expect(result.status).toBe(5);
      if (!line.startsWith('--name')) expect(result.stderr).toBe('');
    });
  }

  it('the run is reported with the job’s own status and output', async () => {
    const before = (await pulsesOf(agent, monitorId)).length;
    const result = await runCli(['run', token, 'remote', '--', 'local'], { env: { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: tempFolder(), PATH: `${programs()}:${process.env.PATH}` } });
    expect(result).toMatchObject({ status: 5, stdout: 'arg:--\narg:local\n', stderr: '' });
    const pulses = (await pulsesOf(agent, monitorId)).slice(before);
    expect(pulses.map((p) => [p.kind, p.exit_code])).toEqual([
      ['start', null],
      ['fail', 5],
    ]);
    expect(pulses[1].body).toBe('arg:--\narg:local\n');
  });

  it('a -- before the command is still ours: the words after it are the job', async () => {
    const result = await runCli(['run', token, '--', 'remote', '--', 'local'], { env: { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: tempFolder(), PATH: `${programs()}:${process.env.PATH}` } });
    expect(result).toMatchObject({ status: 5, stdout: 'arg:--\narg:local\n', stderr: '' });
  });
});
