import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestAgent, type TestAgent } from '../helpers/testAgent';
import { closedPort, runCli, spawnCli, tempFolder, type CliResult } from '../helpers/cli';
import { createMonitor, pulsesOf } from './agentFixtures';

// A mistaken `cronbeat run` line must never skip or change the job: it runs exactly as written,
// once, with its own exit status, and what went wrong is one line on stderr.
vi.setConfig({ testTimeout: 60_000 });

let agent: TestAgent;
let pingKey: string;
let token: string;
let downUrl: string;

beforeAll(async () => {
  agent = await startTestAgent();
  pingKey = agent.store.apiTokens.create({ companyId: 1, name: 'web-01', scope: 'ping', now: Date.now() }).token;
  token = (await createMonitor(agent)).token;
  downUrl = `http://127.0.0.1:${await closedPort()}`;
});
afterAll(() => agent.stop());

const envFor = (extra: Record<string, string | undefined> = {}) => ({
  CRONBEAT_URL: agent.url,
  CRONBEAT_DATA_DIR: tempFolder(),
  CRONBEAT_API_TOKEN: pingKey,
  ...extra,
});
const bySlug = (slug: string) => agent.store.monitors.list(1).filter((m) => m.slug === slug);
const kindsOf = (id: number) =>
  agent.store.pulses
    .page(id, 100, 0)
    .map((p) => p.kind)
    .reverse();

/** A job that counts its runs in a file, prints its arguments and exits 7. */
function countingJob(): { words: string[]; runs: () => string } {
  const file = join(tempFolder(), 'runs');
  return {
    words: ['/bin/sh', '-c', `echo ran >> ${file}; echo "args:$*"; exit 7`, 'job', '--name', 'x', '-h'],
    runs: () => {
      try {
        return readFileSync(file, 'utf8');
      } catch {
        return '';
      }
    },
  };
}

const stderrLines = (result: CliResult) => result.stderr.split('\n').filter(Boolean);

/** Runs `cronbeat run BEFORE… <job>` and expects the job to have run once, as written, with its own status. */
async function expectJobRanAsWritten(before: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  const job = countingJob();
  const result = await runCli(['run', ...before, ...job.words], { env });
  expect(job.runs(), `cronbeat run ${before.join(' ')} …`).toBe('ran\n');
  expect(result.stdout).toBe('args:--name x -h\n');
  expect(result.status).toBe(7);
  expect(result.stderr).not.toMatch(/\n\s+at /); // never a stack
  return result;
}

describe('cronbeat run finds the command without --', () => {
  it('with --name: the first word that is not ours starts the command, all its words kept', async () => {
    const result = await expectJobRanAsWritten(['--name', 'No Separator', '--schedule', '*/5 * * * *'], envFor());
    expect(result.stderr).toBe('');
    const [monitor] = bySlug('no-separator');
    expect(kindsOf(monitor.id)).toEqual(['start', 'fail']);
  });

  it('keeps a leading program such as nice, and every argument after the first', async () => {
    const env = envFor();
    const niced = await runCli(['run', '--name', 'niced', '--schedule', '0 3 * * *', 'nice', '/bin/sh', '-c', 'nice'], { env });
    expect(niced).toMatchObject({ status: 0, stdout: `${Math.min(19, getPriority() + 10)}\n`, stderr: '' });
    const echoed = await runCli(['run', '--name=echoed', '--schedule=0 3 * * *', '/bin/echo', 'hi', 'there'], { env });
    expect(echoed).toMatchObject({ status: 0, stdout: 'hi there\n', stderr: '' });
  });

  it('with a token: the token, then the command; our options may follow the token', async () => {
    const monitor = await createMonitor(agent, 'token without separator');
    await expectJobRanAsWritten([monitor.token], envFor());
    await expectJobRanAsWritten([monitor.token, '--url', agent.url], envFor({ CRONBEAT_URL: downUrl }));
    expect((await pulsesOf(agent, monitor.id)).map((p) => p.kind)).toEqual(['start', 'fail', 'start', 'fail']);
  });

  it('a token written after -- (once or between two --) is the token: the job runs, monitored', async () => {
    const monitor = await createMonitor(agent, 'token after separator');
    const first = await expectJobRanAsWritten(['--', monitor.token], envFor());
    expect(first.stderr).toBe('');
    const twice = await expectJobRanAsWritten(['--', monitor.token, '--'], envFor());
    expect(twice.stderr).toBe('');
    expect((await pulsesOf(agent, monitor.id)).map((p) => p.kind)).toEqual(['start', 'fail', 'start', 'fail']);
  });

  it("gives a job its own words that look like ours, after -- and after the command's first word", async () => {
    const monitor = await createMonitor(agent, 'job options');
    const after = await runCli(['run', monitor.token, '--', '/bin/echo', '--name', 'x', '--help', '--url', 'y'], { env: envFor() });
    expect(after).toMatchObject({ status: 0, stdout: '--name x --help --url y\n', stderr: '' });
    const inside = await runCli(['run', '--name', 'inside', '--schedule', '0 3 * * *', '/bin/echo', '-h', '--schedule', 'z'], { env: envFor() });
    expect(inside).toMatchObject({ status: 0, stdout: '-h --schedule z\n', stderr: '' });
  });
});

describe('a mistaken run line: the job runs as written, one line says what is wrong', () => {
  const line = ['--schedule', '0 3 * * *'];
  const mistakes: [string, () => string[], Record<string, string | undefined>?][] = [
    ['a misspelt option (no --)', () => ['--name', 'misspelt', '--shedule', '0 3 * * *']],
    ['a misspelt option (with --)', () => ['--name', 'misspelt', '--shedule', '0 3 * * *', '--']],
    ['a misspelt flag before the command', () => ['--name', 'flagged', ...line, '--verbose']],
    ['--grace abc', () => ['--name', 'bad-grace', ...line, '--grace', 'abc']],
    ['an unknown zone', () => ['--name', 'bad-zone', ...line, '--timezone', 'Mars/Olympus']],
    ['no value for the last option', () => ['--name', 'no-value', '--schedule', '--']],
    ['no key in CRONBEAT_API_TOKEN', () => ['--name', 'no-key', ...line], { CRONBEAT_API_TOKEN: undefined }],
    ['a bad --url', () => ['--name', 'bad-url', ...line, '--url', 'ftp://x']],
    ['a bad --started-fd', () => ['--name', 'bad-fd', ...line, '--started-fd', 'abc', '--']],
    ['both a token and --name', () => [token, '--name', 'both', ...line, '--']],
    ['a misspelt option before the token', () => ['--ulr', agent.url, token]],
    ['an unknown option before the token', () => ['--quiet', token]],
    ['a bad token', () => ['no-such-token']],
    ['no token at all (with --)', () => ['--']],
    // (A word after the token starts the command, `--` and all, as env's and nice's do; a second token does not.)
    ['a stray word before --', () => ['extra', token, '--']],
  ];
  for (const [what, before, extra] of mistakes) {
    it(what, async () => {
      const result = await expectJobRanAsWritten(before(), envFor(extra));
      expect(stderrLines(result), result.stderr).toHaveLength(1);
      expect(result.stderr).toMatch(/^cronbeat: /);
    });
  }

  it('says which option was meant', async () => {
    const result = await expectJobRanAsWritten(['--name', 'misspelt', '--shedule', '0 3 * * *'], envFor());
    expect(result.stderr).toBe('cronbeat: not monitoring this run: unknown option --shedule (did you mean --schedule?)\n');
  });

  it('a program in the token\'s place starts the command', async () => {
    const result = await runCli(['run', '/bin/echo', 'no', 'token'], { env: envFor() });
    expect(result).toMatchObject({ status: 0, stdout: 'no token\n' });
    expect(stderrLines(result)).toEqual(['cronbeat: not monitoring this run: give the monitor token (or --name) first: cronbeat run TOKEN -- COMMAND [ARGS...]']);
  });

  it('a program on the PATH in the token\'s place starts the command, with all its words', async () => {
    // `nice` was read as the token and dropped: the job ran as `/bin/sh …`, at its normal priority.
    const niced = await runCli(['run', 'nice', '/bin/sh', '-c', 'nice'], { env: envFor() });
    expect(niced).toMatchObject({ status: 0, stdout: `${Math.min(19, getPriority() + 10)}\n` });
    expect(stderrLines(niced)).toEqual(['cronbeat: not monitoring this run: give the monitor token (or --name) first: cronbeat run TOKEN -- COMMAND [ARGS...]']);
    const job = countingJob();
    const counted = await runCli(['run', 'sh', ...job.words.slice(1)], { env: envFor() });
    expect(job.runs()).toBe('ran\n');
    expect(counted).toMatchObject({ status: 7, stdout: 'args:--name x -h\n' });
  });

  it('an option left without its value by an unset variable does not take the program: the job runs, even when it is the last word', async () => {
    for (const before of [['--name', 'unset zone', '--schedule', '0 3 * * *', '--timezone'], [token, '--url']]) {
      const result = await expectJobRanAsWritten(before, envFor());
      expect(stderrLines(result), result.stderr).toEqual([`cronbeat: not monitoring this run: ${before.at(-1)} needs a value`]);
    }
    const last = await runCli(['run', '--name', 'unset zone', '--schedule', '0 3 * * *', '--timezone', '/bin/echo'], { env: envFor() });
    expect(last).toMatchObject({ status: 0, stdout: '\n' });
  });

  it('a pulse URL in the token\'s place is a mistaken token, not the command: the job runs as written after it', async () => {
    // Copied from the dashboard whole, it was taken for the program, and the job never ran (127).
    const job = countingJob();
    const result = await runCli(['run', `${agent.url}/api/pulse/${token}`, ...job.words], { env: envFor() });
    expect(job.runs()).toBe('ran\n');
    expect(result).toMatchObject({ status: 7, stdout: 'args:--name x -h\n' });
    expect(stderrLines(result)).toEqual([
      'cronbeat: not monitoring this run: the monitor token is a URL: give the token alone (the last part of the pulse URL), as `cronbeat monitor show` prints it',
    ]);
  });

  it('an agent out of reach, by token and by line, with or without --', async () => {
    const env = envFor({ CRONBEAT_URL: downUrl });
    for (const before of [[token], [token, '--'], ['--name', 'unreachable', ...line], ['--name', 'unreachable', ...line, '--']]) {
      const result = await expectJobRanAsWritten(before, env);
      expect(stderrLines(result), result.stderr).toHaveLength(1);
      expect(result.stderr).toMatch(/^cronbeat: start and end pulses saved to the spool \(/);
    }
  });

  it('a --help among our words with a command runs the command; alone it prints the help', async () => {
    await expectJobRanAsWritten([token, '--help'], envFor());
    const help = await runCli(['run', '--help'], { env: envFor() });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: cronbeat run/);
  });
});

describe('a misspelt run', () => {
  it('is still a run line: its job runs as written, monitored, and one line says how it was read', async () => {
    const monitor = await createMonitor(agent, 'misspelt run');
    for (const word of ['runn', 'Run', 'rnu']) {
      const job = countingJob();
      const result = await runCli([word, monitor.token, '--', ...job.words], { env: envFor() });
      expect(job.runs(), word).toBe('ran\n');
      expect(result).toMatchObject({ status: 7, stdout: 'args:--name x -h\n' });
      expect(stderrLines(result)).toEqual([`cronbeat: "${word}" is no command; this line is read as \`cronbeat run\`, so that its job runs`]);
    }
    expect((await pulsesOf(agent, monitor.id)).map((p) => p.kind)).toEqual(['start', 'fail', 'start', 'fail', 'start', 'fail']);
  });

  it('with no job in it, or closer to another command, is the usage error it always was', async () => {
    for (const args of [['runn'], ['runn', '--help'], ['spol', 'list']]) {
      const result = await runCli(args, { env: envFor() });
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^cronbeat: Unknown command /);
    }
  });
});

describe('exit 2 only when there is no command to run at all', () => {
  const someToken = '9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';
  for (const args of [[], [someToken], [someToken, '--'], ['--name', 'x', '--schedule', '0 3 * * *'], ['--name', 'x', '--'], ['--shedule', 'x']]) {
    it(`cronbeat run ${args.join(' ')}`, async () => {
      const result = await runCli(['run', ...args], { env: envFor() });
      expect(result.status).toBe(2);
      expect(stderrLines(result)).toHaveLength(1);
      expect(result.stderr).toMatch(/^cronbeat: Give the /);
    });
  }
});

describe('a reader of the output that goes away', () => {
  it('neither stops the job nor changes its status, and its end is still reported', async () => {
    const monitor = await createMonitor(agent, 'reader gone');
    const finished = join(tempFolder(), 'finished');
    const child = spawnCli(['run', monitor.token, '--', '/bin/sh', '-c', `i=0; while [ $i -lt 3000 ]; do echo line $i; i=$((i+1)); done; echo yes > ${finished}; exit 3`], {
      env: envFor(),
    });
    child.stdout!.once('data', () => child.stdout!.destroy()); // as `| head -n 1` does
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const status = await new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    expect(stderr).toBe('');
    expect(status).toBe(3);
    expect(readFileSync(finished, 'utf8')).toBe('yes\n');
    expect((await pulsesOf(agent, monitor.id)).map((p) => [p.kind, p.exit_code])).toEqual([
      ['start', null],
      ['fail', 3],
    ]);
  });
});
