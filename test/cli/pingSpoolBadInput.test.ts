import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { closedPort, runCli, tempFolder } from '../helpers/cli';

// `ping` and `spool` run no job, but a crontab line uses them: whatever it says, one line on
// stderr, a documented exit status, never a stack.
vi.setConfig({ testTimeout: 30_000 });

let down: string;
beforeAll(async () => {
  down = `http://127.0.0.1:${await closedPort()}`;
});

const spoolIsAFolder = () => {
  const dir = tempFolder();
  mkdirSync(join(dir, 'spool.jsonl'));
  return dir;
};

const cases: [string, () => string[], number][] = [
  ['ping with no token', () => ['ping'], 2],
  ['ping with an unknown option', () => ['ping', 'T', '--bogus'], 2],
  ['ping with an option missing its value', () => ['ping', 'T', '--message'], 2],
  ['ping with an exit code out of range', () => ['ping', 'T', '--exit-code', '300'], 2],
  ['ping with a stray word', () => ['ping', 'T', 'extra'], 2],
  ['ping with a URL that is not one', () => ['ping', 'T', '--url', 'http://[::1'], 2],
  ['ping with a port out of range', () => ['ping', 'T', '--url', 'http://127.0.0.1:99999'], 2],
  // The data folder is not used then, and the pulse is kept in the private temporary folder instead (spoolNotAFile.test.ts).
  ['ping whose spool is a folder, agent down', () => ['ping', 'T', '--url', down, '--data-dir', spoolIsAFolder()], 0],
  ['spool with nothing to do', () => ['spool'], 2],
  ['spool with an unknown action', () => ['spool', 'frob'], 2],
  ['spool list with an unknown option', () => ['spool', 'list', '--bogus'], 2],
  ['spool flush to a URL that is not one', () => ['spool', 'flush', '--url', 'ftp://x', '--data-dir', tempFolder()], 2],
];

describe('ping and spool on bad input', () => {
  for (const [what, args, status] of cases) {
    it(what, async () => {
      const result = await runCli(args(), { env: { CRONBEAT_DATA_DIR: tempFolder(), TMPDIR: tempFolder() } });
      expect(result.status).toBe(status);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(result.stderr).toMatch(/^cronbeat: /);
      expect(result.stderr.trim().split('\n').length, result.stderr).toBeLessThanOrEqual(2);
    });
  }
});
