import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { jobsOf, parseCrontab } from '../../agent/cli/crontab/parse';
import { monitoredLine, rewriteJobLine, undoneLine } from '../../agent/cli/crontab/rewrite';

/*
 * Lines made of the pieces that trip a rewrite (quotes, backslashes, %, $, operators, blanks),
 * from a fixed seed: every line the shell accepts is rewritten into one the shell accepts, which
 * hands the job the same words and cron the same stdin, and --undo gives it back byte for byte.
 */

const PIECES = ['echo', ' ', '  ', '\t', "'", '"', '\\', '%', '\\%', '$HOME', ';', '&&', '|', '>', 'a', 'b c', '#', '`', '(', ')', '*', '~', '=', 'x=1', '\\\\', "'\\''", '$(', '{', '}', '!'];
const TOKEN = '0b7c9a4e-2f7d-4c1e-9d8a-5e6f7a8b9c0d';

function lines(count: number): string[] {
  let seed = 42;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  return Array.from({ length: count }, () => {
    let command = 'echo';
    for (let k = 1 + next(8); k > 0; k--) command += PIECES[next(PIECES.length)];
    return `0 3 * * * ${command}`;
  });
}

const shellAccepts = (command: string) => spawnSync('/bin/sh', ['-n', '-c', command]).status === 0;

/** The words `set -- …` gives the wrapper's "$@", as the shell sees them. */
function wrapperWords(command: string): string[] {
  const setPart = command.slice(0, command.indexOf('; [ -r '));
  return spawnSync('/bin/sh', ['-c', `${setPart}; printf '%s\\0' "$@"`], { encoding: 'utf8' }).stdout.split('\0').slice(0, -1);
}

describe('rewriting any line', () => {
  it('keeps what the shell runs, the stdin and the bytes of every line the shell accepts', () => {
    let checked = 0;
    for (const raw of lines(300)) {
      const job = jobsOf(parseCrontab(`${raw}\n`, 'user'))[0];
      if (!job || job.unmonitorable || !shellAccepts(job.shellCommand)) continue;
      checked++;
      const line = rewriteJobLine(job, TOKEN, { shim: '/usr/local/lib/cronbeat/cronbeat', url: null }, { id: 3, name: job.shellCommand });
      const wrapped = jobsOf(parseCrontab(`${line}\n`, 'user'))[0]!;
      expect({ raw, accepted: shellAccepts(wrapped.shellCommand), stdin: wrapped.stdin }).toEqual({ raw, accepted: true, stdin: job.stdin });
      const words = wrapperWords(wrapped.shellCommand);
      const expected = job.shellCommand.trimEnd();
      if (words[1] === '-c') expect({ raw, words }).toEqual({ raw, words: ['/bin/sh', '-c', expected] });
      else expect({ raw, words }).toEqual({ raw, words: expected.split(/\s+/) });
      expect(undoneLine(wrapped, monitoredLine(wrapped)!)).toBe(raw);
    }
    expect(checked).toBeGreaterThan(100);
  });
});
