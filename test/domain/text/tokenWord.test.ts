import { describe, expect, it } from 'vitest';
import { monitorToWriteProblem, tokenWordProblem } from '../../../agent/domain/text/tokenWord';

describe('tokenWordProblem', () => {
  it('takes the tokens and keys an agent makes', () => {
    expect(tokenWordProblem('9287848c-0c2a-495c-9ac8-b328afaa836e', 'monitor token')).toBeNull();
    expect(tokenWordProblem('cb_dKPB6gHEUqyfAjqLqmwM6TkwYl6-vpl-knI3rupj294', 'ping key')).toBeNull();
  });

  it('refuses what a shell, cron or systemd would read as more than a word, saying what came', () => {
    for (const token of ['a\nb', 'a;b', 'a b', 'a%b', '$(id)', "a'b", 'a\u001b[2J', '', 'x'.repeat(257)]) {
      expect(tokenWordProblem(token, 'monitor token'), JSON.stringify(token)).toMatch(/^the agent answered with a monitor token that is not one \(/);
    }
    expect(tokenWordProblem(undefined, 'ping key')).toBe('the agent answered with a ping key that is not one (undefined), which is never written into a crontab or a unit');
    expect(tokenWordProblem('a\nb', 'monitor token')).toContain('("a\\nb")');
    // JSON leaves these raw; a terminal may act on them (U+009B is a one-byte CSI on some).
    expect(tokenWordProblem('a\u009b2Jb\u202e', 'monitor token')).toContain('("a\\u009b2Jb\\u202e")');
    expect(monitorToWriteProblem({ id: '7\u009b', token: 'a' })).toContain('"7\\u009b"');
  });

  it('takes a monitor whose id is a positive integer and whose token is one word', () => {
    const token = '9287848c-0c2a-495c-9ac8-b328afaa836e';
    expect(monitorToWriteProblem({ id: 7, token })).toBeNull();
    for (const id of ['7', '7\n* * * * * root id', 0, -1, 1.5, null]) {
      expect(monitorToWriteProblem({ id, token }), JSON.stringify(id)).toMatch(/^the agent answered with a monitor id that is not one/);
    }
    expect(monitorToWriteProblem({ id: 7, token: 'a b' })).toMatch(/monitor token that is not one/);
  });
});
