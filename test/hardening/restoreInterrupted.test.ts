import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, it } from 'vitest';
import { startAgent } from '../../agent/agent';
import { databaseFile } from '../../agent/dataFolder/dataDir';
import { backupDatabase } from '../../agent/db/backup';
import { openStore } from '../../agent/db/store';
import { CLI, cleanEnv, finished, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/testAgent';

/*
 * `cronbeat restore` ends with renames: the database it replaces goes aside, the checked copy of
 * the backup takes its place. Killed between them (a power cut, the OOM killer, a closed SSH
 * session's SIGKILL), it once left no database at all, and the next `cronbeat serve` started on a
 * new empty one: every monitor gone, without a word, and the backup's copy left as a hidden
 * `.partial` file. The restore is killed here at each of its renames, for real (strace stops the
 * process as it enters the Nth rename, the program itself knows nothing of it), and what comes
 * next must find a whole database: the one it replaced, or the backup's, never neither.
 */

const hasStrace = spawnSync('strace', ['-V']).status === 0;
const RENAMES = ['rename', 'renameat', 'renameat2'].join(',');

/** A data folder whose database holds one key named `name`; the key names tell the databases apart. */
function dataFolderWithKey(name: string): string {
  const dir = tempDir();
  const store = openStore(databaseFile(dir), Date.now());
  store.apiTokens.create({ companyId: 1, name, now: Date.now() });
  store.close();
  return dir;
}

async function backupWithKey(name: string): Promise<string> {
  const file = join(tempDir(), `${name}.db`);
  await backupDatabase(databaseFile(dataFolderWithKey(name)), file);
  return file;
}

const keyNames = (file: string) => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT name FROM api_tokens ORDER BY id').pluck().all();
  } finally {
    db.close();
  }
};

/** `cronbeat restore`, killed with SIGKILL as it enters its `nth` rename (or not, when it makes fewer). */
function restoreKilledAt(nth: number, backup: string, dataDir: string) {
  const child = spawn(
    'strace',
    ['-qq', '-o', '/dev/null', '-e', `trace=${RENAMES}`, '-e', `inject=${RENAMES}:signal=SIGKILL:when=${nth}`, process.execPath, CLI, 'restore', backup, '--data-dir', dataDir],
    { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  return finished(child);
}

/** Names in the data folder that are neither the database, its lock, nor a database kept aside. */
const leftovers = (dataDir: string) => readdirSync(dataDir).filter((name) => name.startsWith('.'));
const keptAside = (dataDir: string) => readdirSync(dataDir).filter((name) => name.startsWith('cronbeat.db.before-restore-') && !/-(wal|shm)$/.test(name));

describe.skipIf(!hasStrace || process.platform !== 'linux').concurrent('a restore killed between its renames', () => {
  for (const nth of [1, 2, 3, 4]) {
    it(`is finished or undone by the next start (killed at rename ${nth})`, { timeout: 30_000 }, async ({ expect }) => {
      const dataDir = dataFolderWithKey('replaced');
      const backup = await backupWithKey('from-backup');
      await restoreKilledAt(nth, backup, dataDir);

      const agent = await startAgent({ dataDir, port: 0, log: () => {} });
      const names = agent.store.apiTokens.list().map((key) => key.name);
      await agent.close();

      // A whole database, never a new empty one: the backup's (and the replaced one kept aside), or the replaced one as it was.
      expect([['from-backup'], ['replaced']]).toContainEqual(names);
      if (names[0] === 'from-backup') {
        expect(keptAside(dataDir)).toHaveLength(1);
        expect(keyNames(join(dataDir, keptAside(dataDir)[0]!))).toEqual(['replaced']);
      } else {
        expect(keptAside(dataDir)).toEqual([]);
      }
      expect(leftovers(dataDir)).toEqual([]); // nor a hidden copy of the backup, as large as the database, left for good
    });
  }

  it('once past its checks, is finished by the next start, which says so', { timeout: 30_000 }, async ({ expect }) => {
    const dataDir = dataFolderWithKey('replaced');
    const backup = await backupWithKey('from-backup');
    const killed = await restoreKilledAt(2, backup, dataDir);
    expect(killed.stdout).toBe('');

    const said: string[] = [];
    const agent = await startAgent({ dataDir, port: 0, log: (text) => said.push(text) });
    const names = agent.store.apiTokens.list().map((key) => key.name);
    await agent.close();

    expect(names).toEqual(['from-backup']);
    expect(said.join('\n')).toMatch(/interrupted restore .*finished.*before-restore-/);
  });

  it('is finished by the next restore, before it restores what it was given', { timeout: 30_000 }, async ({ expect }) => {
    const dataDir = dataFolderWithKey('replaced');
    const first = await backupWithKey('first-backup');
    const second = await backupWithKey('second-backup');
    await restoreKilledAt(2, first, dataDir);

    const again = await runCli(['restore', second, '--data-dir', dataDir]);

    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/interrupted restore .*finished/);
    expect(keyNames(databaseFile(dataDir))).toEqual(['second-backup']);
    // Both databases it replaced are kept: the one of before the first restore, and the first backup's.
    expect(keptAside(dataDir).map((name) => keyNames(join(dataDir, name))[0]).sort()).toEqual(['first-backup', 'replaced']);
    expect(leftovers(dataDir)).toEqual([]);
  });
});

describe.skipIf(!hasStrace || process.platform !== 'linux')('a restore killed between its renames, then `cronbeat token`', () => {
  it('is finished first, so the key goes into the restored database, not a new empty one', { timeout: 30_000 }, async ({ expect }) => {
    const dataDir = dataFolderWithKey('replaced');
    const backup = await backupWithKey('from-backup');
    await restoreKilledAt(2, backup, dataDir);

    const made = await runCli(['token', 'create', '--name', 'made after', '--data-dir', dataDir]);

    expect(made.status).toBe(0);
    expect(made.stderr).toMatch(/interrupted restore .*finished/);
    expect(keyNames(databaseFile(dataDir))).toEqual(['from-backup', 'made after']);
    expect(keptAside(dataDir).map((name) => keyNames(join(dataDir, name)))).toEqual([['replaced']]);
    expect(leftovers(dataDir)).toEqual([]);
  });
});
