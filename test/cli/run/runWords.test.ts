import { describe, expect, it } from 'vitest';
import { optionsBeforeRun, readRunWords } from '../../../agent/cli/run/runWords';

// Which words of a `cronbeat run` line are ours and which the job's; `runs` stands for PATH.
const onPath = new Set(['nice', 'date', 'backup.sh']);
const read = (line: string[]) => readRunWords(line, (word) => word.startsWith('/') || onPath.has(word));

describe('readRunWords', () => {
  it('finds the command without --, after our options and their values', () => {
    const niced = read(['--name', 'b', '--schedule', '0 3 * * *', 'nice', '/bin/echo', 'x']);
    expect(niced.command).toEqual(['nice', '/bin/echo', 'x']);
    expect(niced.mistake).toBeUndefined();
    expect(read(['--name=b', '--schedule=@daily', '/bin/echo', 'hi', 'there'])).toMatchObject({ values: { name: 'b', schedule: '@daily' }, command: ['/bin/echo', 'hi', 'there'] });
    expect(read(['T', '--url', 'http://x', 'date', '--name', 'y'])).toMatchObject({ token: 'T', values: { url: 'http://x' }, command: ['date', '--name', 'y'] });
  });

  it('gives the job everything after --, and our words before it', () => {
    const words = read(['T', '--', 'job', '--name', 'x', '-h']);
    expect(words).toMatchObject({ token: 'T', help: false, command: ['job', '--name', 'x', '-h'] });
    expect(words.mistake).toBeUndefined();
  });

  it('a misspelt option takes its value, unless that word is the command', () => {
    expect(read(['--name', 'b', '--shedule', '0 3 * * *', 'backup.sh'])).toMatchObject({
      command: ['backup.sh'],
      mistake: 'unknown option --shedule (did you mean --schedule?)',
    });
    expect(read(['--name', 'b', '--verbose', '/bin/date'])).toMatchObject({ command: ['/bin/date'], mistake: 'unknown option --verbose' });
  });

  it('a program in the token\'s place is the command', () => {
    expect(read(['/bin/date', '+%s']).command).toEqual(['/bin/date', '+%s']);
    expect(read(['date']).command).toEqual(['date']);
    expect(read(['date']).mistake).toMatch(/^give the monitor token/);
  });

  it('a program in the token\'s place starts the command even with words after it: no token is named like one', () => {
    // Without a token, `cronbeat run nice /bin/echo hi` took `nice` for the token and ran `/bin/echo hi`.
    expect(read(['nice', '/bin/echo', 'hi'])).toMatchObject({ command: ['nice', '/bin/echo', 'hi'], mistake: expect.stringMatching(/^give the monitor token/) });
    expect(read(['date', '+%s']).command).toEqual(['date', '+%s']);
    expect(read(['--url', 'http://x', 'backup.sh', '--full']).command).toEqual(['backup.sh', '--full']);
    // A word no program answers to is still the token (a mistyped one included), and a monitor's token stays one.
    expect(read(['T', 'date'])).toMatchObject({ token: 'T', command: ['date'] });
    const uuid = '9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';
    expect(readRunWords([uuid, 'date'], () => true)).toMatchObject({ token: uuid, command: ['date'] });
  });

  it('an option whose value is left out (an unset variable, unquoted) does not swallow the program after it', () => {
    // `--timezone $TZ /bin/echo hi` with TZ unset: /bin/echo became the zone, and `hi` the command (127);
    // with nothing after it, there was no command at all and the job was skipped (exit 2).
    expect(read(['--name', 'b', '--schedule', '@daily', '--timezone', '/bin/echo', 'hi'])).toMatchObject({
      command: ['/bin/echo', 'hi'],
      mistake: '--timezone needs a value',
    });
    expect(read(['--name', 'b', '--schedule', '@daily', '--timezone', 'backup.sh'])).toMatchObject({ command: ['backup.sh'], mistake: '--timezone needs a value' });
    expect(read(['--name', 'b', '--schedule', 'date'])).toMatchObject({ command: ['date'], mistake: '--schedule needs a value' });
    expect(read(['T', '--url', '/bin/echo', 'hi'])).toMatchObject({ token: 'T', command: ['/bin/echo', 'hi'], mistake: '--url needs a value' });
    for (const option of ['--grace', '--max-runtime', '--alert-after', '--data-dir', '--server']) {
      expect(read(['--name', 'b', option, '/bin/echo', 'hi']), option).toMatchObject({ command: ['/bin/echo', 'hi'], mistake: `${option} needs a value` });
    }
    // A name is anyone's words, a program's among them: --name takes the word after it.
    expect(read(['--name', 'nice', '--schedule', '@daily', 'date'])).toMatchObject({ values: { name: 'nice' }, command: ['date'] });
    // Values that are no program stay values.
    expect(read(['--name', 'b', '--schedule', '0 3 * * *', '--timezone', 'Europe/Paris', '--grace', '30', 'date'])).toMatchObject({
      values: { schedule: '0 3 * * *', timezone: 'Europe/Paris', grace: '30' },
      command: ['date'],
    });
  });

  it('says what is missing when there is no command', () => {
    expect(read([])).toMatchObject({ command: [], missing: expect.stringMatching(/^Give the monitor token \(or --name and --schedule\) and the command/) });
    expect(read(['T'])).toMatchObject({ command: [], missing: 'Give the command to run after --: cronbeat run TOKEN -- COMMAND [ARGS...]' });
    expect(read(['--name', 'b', '--'])).toMatchObject({ command: [], missing: expect.stringMatching(/^Give the command to run after --: cronbeat run --name NAME/) });
  });

  it('an empty token, an option without its value, two targets, a stray word: mistakes, the command kept', () => {
    expect(read(['', '--', 'x']).mistake).toMatch(/^give the monitor token/);
    expect(read(['--name', 'b', '--schedule', '--', 'x'])).toMatchObject({ command: ['x'], mistake: '--schedule needs a value' });
    expect(read(['T', '--name', 'b', '--', 'x']).mistake).toMatch(/either a monitor token or --name/);
    expect(read(['nice', 'extra', '--', 'x']).mistake).toMatch(/"extra" is not an option of cronbeat run/);
  });

  it('a -- after the word that starts the command is the job\'s, not ours', () => {
    // `run TOKEN kubectl exec pod -- /backup.sh` ran /backup.sh here, alone.
    expect(read(['T', 'kubectl', 'exec', 'pod', '--', '/backup.sh'])).toMatchObject({ token: 'T', command: ['kubectl', 'exec', 'pod', '--', '/backup.sh'] });
    expect(read(['T', 'extra', '--', 'x'])).toMatchObject({ token: 'T', command: ['extra', '--', 'x'] });
    expect(read(['T', 'extra', '--', 'x']).mistake).toBeUndefined();
    expect(read(['--name', 'b', '--schedule', '@daily', 'nice', '--', 'date'])).toMatchObject({ command: ['nice', '--', 'date'] });
    expect(read(['/bin/echo', '--', 'x']).command).toEqual(['/bin/echo', '--', 'x']);
    // Before the command, a -- is ours, and a bare word before it the token, even one named like a program.
    expect(read(['T', '--url', 'http://x', '--', 'date', '--', 'y'])).toMatchObject({ token: 'T', values: { url: 'http://x' }, command: ['date', '--', 'y'] });
    expect(read(['nice', '--', 'date'])).toMatchObject({ token: 'nice', command: ['date'] });
    const uuid = '9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';
    expect(read(['extra', uuid, '--', 'date'])).toMatchObject({ token: 'extra', command: ['date'], mistake: expect.stringMatching(/is not an option of cronbeat run/) });
    expect(read(['--name', 'b', '--schedule', '--', 'x'])).toMatchObject({ command: ['x'], mistake: '--schedule needs a value' });
  });

  it('options before run in a line that holds a job are run\'s own', () => {
    const runs = (word: string) => word.startsWith('/') || onPath.has(word);
    expect(optionsBeforeRun(['--url', 'http://x', 'run', 'T', '--', 'date'], runs)).toEqual(['--url', 'http://x', 'T', '--', 'date']);
    expect(optionsBeforeRun(['--url=http://x', '-v', 'run', 'T', 'date'], runs)).toEqual(['--url=http://x', '-v', 'T', 'date']);
    // No job, no run, or nothing before it: not such a line.
    expect(optionsBeforeRun(['--url', 'http://x', 'run', 'T'], runs)).toBeNull();
    expect(optionsBeforeRun(['--url', 'http://x', 'spool', 'list'], runs)).toBeNull();
    expect(optionsBeforeRun(['run', 'T', '--', 'date'], runs)).toBeNull();
    expect(optionsBeforeRun(['--help'], runs)).toBeNull();
  });
});
