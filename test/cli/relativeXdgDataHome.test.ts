import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cleanEnv, closedPort, tempFolder } from '../helpers/cli';

/*
 * XDG_DATA_HOME set to a relative path, which the XDG Base Directory specification says to ignore:
 * taken as it was, each job's spool (and serve's database) went into a folder of that name under
 * whatever folder the command ran in, a different one for each crontab line that cd's elsewhere.
 */

describe('a relative XDG_DATA_HOME', () => {
  it('is ignored: the data folder is ~/.local/share/cronbeat, not a folder under the current one', async () => {
    const home = tempFolder();
    const cwd = tempFolder();
    const url = `http://127.0.0.1:${await closedPort()}`;
    const result = spawnSync(process.execPath, [CLI, 'run', 'some-token', '--url', url, '--', 'true'], {
      cwd,
      env: cleanEnv({ HOME: home, XDG_DATA_HOME: 'data' }),
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(existsSync(join(cwd, 'data'))).toBe(false);
    expect(existsSync(join(home, '.local', 'share', 'cronbeat', 'spool.jsonl'))).toBe(true);
  });
});
