import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli';

// The sub-command a new user reaches for, when it is not ours: a misspelling, or another word for ours.
vi.setConfig({ testTimeout: 30_000 });

const said = async (args: string[]) => {
  const result = await runCli(args, { env: { CRONBEAT_URL: 'http://127.0.0.1:9', CRONBEAT_API_TOKEN: 'cb_unused' } });
  expect(result.status).toBe(2);
  expect(result.stdout).toBe('');
  return result.stderr;
};

describe('a sub-command that is not one', () => {
  it('of timers: "did you mean", as every other command says it', async () => {
    expect(await said(['timers', 'lst'])).toBe('cronbeat: "lst" is not a sub-command of cronbeat timers (list, discover, watch). Did you mean "list"?\n');
    expect(await said(['timers', 'dicsover'])).toBe('cronbeat: "dicsover" is not a sub-command of cronbeat timers (list, discover, watch). Did you mean "discover"?\n');
  });

  it('another word for one of ours: the one it means, never one merely spelt alike ("add" is not "hand")', async () => {
    const monitorWords = '(create, list, show, pause, resume, edit, delete, rotate-token, hand)';
    expect(await said(['monitor', 'add', 'x', '--schedule', '0 3 * * *'])).toBe(`cronbeat: "add" is not a sub-command of cronbeat monitor ${monitorWords}. Did you mean "create"?\n`);
    expect(await said(['monitor', 'new', 'x'])).toBe(`cronbeat: "new" is not a sub-command of cronbeat monitor ${monitorWords}. Did you mean "create"?\n`);
    expect(await said(['monitor', 'remove', 'x'])).toBe(`cronbeat: "remove" is not a sub-command of cronbeat monitor ${monitorWords}. Did you mean "delete"?\n`);
    expect(await said(['monitor', 'rm', 'x'])).toBe(`cronbeat: "rm" is not a sub-command of cronbeat monitor ${monitorWords}. Did you mean "delete"?\n`);
    expect(await said(['maintenance', 'delete', '3'])).toBe('cronbeat: "delete" is not a sub-command of cronbeat maintenance (add, list, remove). Did you mean "remove"?\n');
    expect(await said(['maintenance', 'rm', '3'])).toBe('cronbeat: "rm" is not a sub-command of cronbeat maintenance (add, list, remove). Did you mean "remove"?\n');
    expect(await said(['maintenance', 'create', '--for', '1h'])).toBe('cronbeat: "create" is not a sub-command of cronbeat maintenance (add, list, remove). Did you mean "add"?\n');
    expect(await said(['token', 'delete', '3'])).toBe('cronbeat: "delete" is not a sub-command of cronbeat token (create, list, revoke, limit). Did you mean "revoke"?\n');
    // A misspelling still gets the word it is spelt like.
    expect(await said(['monitor', 'craete', 'x'])).toBe(`cronbeat: "craete" is not a sub-command of cronbeat monitor ${monitorWords}. Did you mean "create"?\n`);
  });

  it('a misspelt option of cronbeat itself: "did you mean", not an unknown command', async () => {
    expect(await said(['--verison'])).toBe('cronbeat: cronbeat has no option --verison. Did you mean --version?\n');
    expect(await said(['--hepl'])).toBe('cronbeat: cronbeat has no option --hepl. Did you mean --help?\n');
    expect(await said(['--url', 'http://127.0.0.1:9'])).toBe('cronbeat: cronbeat has no option --url. Options go after the command: `cronbeat <command> --url …` (see `cronbeat --help`).\n');
  });
});
