import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../agent/db/migrations';
import { openStore } from '../../agent/db/store';
import { CLI, cleanEnv, finished, runCli, tempFolder } from '../helpers/cli';
import { rollBackTo } from '../helpers/rollBack';

/*
 * An upgrade runs its migrations one transaction each, so an agent killed in the middle of one
 * (a power cut, a service manager's SIGKILL after its stop timeout) leaves a whole schema behind
 * and the next start goes on from there. But the next start also took a new copy "from before the
 * upgrade", of that half-upgraded database, and deleted the real one: an older Cronbeat refuses the
 * new copy as newer than itself, and the way back the docs promise was gone. The agent is killed
 * here for real, by strace, as it writes a page of one of the later migrations into the log.
 */

const FIXTURE = resolve(__dirname, '../fixtures/release-0.4.0.db');
const hasStrace = spawnSync('strace', ['-V']).status === 0;

const schemaOf = (file: string) => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
};

/** Every row of every table, to compare what two files hold. */
function contents(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    return Object.fromEntries(names.map((name) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]));
  } finally {
    db.close();
  }
}

/** A data folder holding the fixture (an older release's database), upgraded by `cronbeat serve` killed at its `nth` write to the log. */
async function upgradeKilledAt(nth: number): Promise<string> {
  const dir = tempFolder('cronbeat-upgrade-killed-');
  copyFileSync(FIXTURE, join(dir, 'cronbeat.db'));
  chmodSync(join(dir, 'cronbeat.db'), 0o600);
  const wal = join(dir, 'cronbeat.db-wal');
  const child = spawn(
    'strace',
    ['-qq', '-o', '/dev/null', '-P', wal, '-e', 'trace=pwrite64,write', '-e', `inject=pwrite64,write:signal=SIGKILL:when=${nth}`, process.execPath, CLI, 'serve', '--port', '0', '--data-dir', dir, '--no-popups'],
    { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] },
  );
  await finished(child);
  return dir;
}

describe.skipIf(!hasStrace || process.platform !== 'linux')('an upgrade killed between two migrations', () => {
  it('is finished by the next start, which keeps the copy of the release\'s database, not of the half-upgraded one', { timeout: 60_000 }, async () => {
    // Read from a copy: opening a database in WAL mode, even to read, leaves -wal and -shm files beside it.
    const fixture = join(tempFolder(), 'fixture.db');
    copyFileSync(FIXTURE, fixture);
    const before = schemaOf(fixture);
    // The first write into the log that lands between two migrations (how many pages each writes may change).
    let dir = '';
    for (const nth of [10, 5, 20, 3, 40]) {
      dir = await upgradeKilledAt(nth);
      const left = schemaOf(join(dir, 'cronbeat.db'));
      if (left > before && left < migrations.length) break;
      dir = '';
    }
    expect(dir, 'no kill landed between two migrations').not.toBe('');
    const copiesAfterKill = readdirSync(dir).filter((name) => name.includes('.before-upgrade-'));
    expect(copiesAfterKill).toEqual([expect.stringMatching(new RegExp(`^cronbeat\\.db\\.before-upgrade-from-schema-${before}-`))]);

    const store = openStore(join(dir, 'cronbeat.db'), Date.now());
    const monitors = store.db.prepare('SELECT id, token, due_at FROM monitors ORDER BY id').all();
    store.close();

    expect(schemaOf(join(dir, 'cronbeat.db'))).toBe(migrations.length);
    // The copy is still the release's database, which that release opens: the way back.
    const copies = readdirSync(dir).filter((name) => name.includes('.before-upgrade-'));
    expect(copies).toEqual(copiesAfterKill);
    expect(schemaOf(join(dir, copies[0]!))).toBe(before);
    expect(contents(join(dir, copies[0]!))).toEqual(contents(fixture));
    // Nothing lost on the way: the monitors keep their tokens and due times.
    const old = new Database(fixture, { readonly: true });
    expect(monitors).toEqual(old.prepare('SELECT id, token, due_at FROM monitors ORDER BY id').all());
    old.close();
    expect(readdirSync(dir)).not.toContain('cronbeat.db.upgrading');
  });

  it('is not taken for the upgrade of a backup restored over it', { timeout: 60_000 }, async () => {
    let dir = '';
    for (const nth of [10, 5, 20, 3, 40]) {
      dir = await upgradeKilledAt(nth);
      if (readdirSync(dir).includes('cronbeat.db.upgrading')) break;
      dir = '';
    }
    expect(dir, 'no kill landed between two migrations').not.toBe('');
    // A backup of a later release than the fixture's, with a key of its own.
    const schema = migrations.length - 2;
    const backup = join(tempFolder(), 'backup.db');
    const made = openStore(backup, Date.now());
    made.apiTokens.create({ companyId: 1, name: 'in the backup', now: Date.now() });
    made.close();
    rollBackTo(backup, schema);
    expect((await runCli(['restore', backup, '--data-dir', dir])).status).toBe(0);

    openStore(join(dir, 'cronbeat.db'), Date.now()).close();

    // Its upgrade kept a copy of it, the database restored, not the one the interrupted upgrade had kept.
    const copies = readdirSync(dir).filter((name) => name.includes('.before-upgrade-'));
    expect(copies).toEqual([expect.stringMatching(new RegExp(`^cronbeat\\.db\\.before-upgrade-from-schema-${schema}-`))]);
    const copy = new Database(join(dir, copies[0]!), { readonly: true });
    expect(copy.prepare('SELECT name FROM api_tokens').pluck().all()).toEqual(['in the backup']);
    copy.close();
  });
});
