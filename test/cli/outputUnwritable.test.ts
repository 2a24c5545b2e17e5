import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { CLI, cleanEnv, tempFolder } from '../helpers/cli';
import { createMonitor, pulsesOf } from './agentFixtures';

/*
 * Output that cannot be written where it goes: a file on a full disk (/dev/full answers every
 * write with ENOSPC, as a log on a full /var does). A command says so in one line and exits 1, never
 * with a stack trace; `cronbeat run` keeps its job running to its end and exits with its status,
 * its end still reported.
 */

let agent: TestAgent;
beforeAll(async () => {
  agent = await startTestAgent();
});
afterAll(() => agent.stop());

interface Outcome {
  status: number | null;
  /** What the stream that is not /dev/full received. */
  other: string;
}

/** Runs the CLI with stdout (or stderr) on /dev/full; collects the other stream. */
function withFullDisk(stream: 'stdout' | 'stderr', args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  const full = openSync('/dev/full', 'w');
  const child = spawn(process.execPath, [CLI, ...args], {
    env: cleanEnv(env),
    stdio: ['ignore', stream === 'stdout' ? full : 'pipe', stream === 'stderr' ? full : 'pipe'],
  });
  closeSync(full);
  let other = '';
  const pipe = stream === 'stdout' ? child.stderr! : child.stdout!;
  pipe.setEncoding('utf8').on('data', (chunk: string) => (other += chunk));
  return new Promise((done) => child.on('close', (status) => done({ status, other })));
}

const NO_STACK = /\n\s+at |node:internal|Node\.js v/;

describe('standard output on a full disk', () => {
  it('cronbeat --help says it in one line and exits 1', async () => {
    const result = await withFullDisk('stdout', ['--help']);
    expect(result.other).not.toMatch(NO_STACK);
    expect(result.other).toBe('cronbeat: cannot write to standard output: ENOSPC: no space left on device, write\n');
    expect(result.status).toBe(1);
  });

  it('monitor list --json says it in one line and exits 1', async () => {
    await createMonitor(agent, 'listed');
    const result = await withFullDisk('stdout', ['monitor', 'list', '--json'], { CRONBEAT_URL: agent.url, CRONBEAT_API_TOKEN: agent.token });
    expect(result.other).not.toMatch(NO_STACK);
    expect(result.other.split('\n').filter(Boolean)).toEqual([expect.stringMatching(/^cronbeat: cannot write to standard output: .*ENOSPC/)]);
    expect(result.status).toBe(1);
  });
});

describe('cronbeat run with its output on a full disk', () => {
  /** A job long enough to outlive the first failed write, writing to both streams, then leaving a mark. */
  function job(): { words: string[]; finished: () => string } {
    const mark = join(tempFolder(), 'finished');
    const script = `i=0; while [ $i -lt 2000 ]; do echo "out $i"; echo "err $i" >&2; i=$((i+1)); done; echo yes > ${mark}; exit 7`;
    return {
      words: ['/bin/sh', '-c', script],
      finished: () => readFileSync(mark, 'utf8'),
    };
  }

  for (const stream of ['stdout', 'stderr'] as const) {
    it(`${stream}: the job runs to its end, its status passes through and its end is reported`, async () => {
      const monitor = await createMonitor(agent, `full ${stream}`);
      const { words, finished } = job();
      const result = await withFullDisk(stream, ['run', monitor.token, '--', ...words], { CRONBEAT_URL: agent.url, CRONBEAT_DATA_DIR: tempFolder() });
      expect(result.other).not.toMatch(NO_STACK);
      expect(finished()).toBe('yes\n');
      expect(result.status).toBe(7);
      expect((await pulsesOf(agent, monitor.id)).map((p) => [p.kind, p.exit_code])).toEqual([
        ['start', null],
        ['fail', 7],
      ]);
      if (stream === 'stdout') {
        // The job's stderr passes through whole; our one notice says where its stdout went.
        const ours = result.other.split('\n').filter((line) => line.startsWith('cronbeat: '));
        expect(ours).toEqual([expect.stringMatching(/^cronbeat: the job's standard output cannot be written \(ENOSPC.*\): it runs on/)]);
        expect(result.other).toContain('err 1999\n');
      } else {
        expect(result.other).toContain('out 1999\n');
      }
    });
  }
});
