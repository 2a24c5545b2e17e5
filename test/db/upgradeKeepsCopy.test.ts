import { copyFileSync, mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { migrations } from '../../agent/db/migrations';
import { runCli, startServe, tempFolder } from '../helpers/cli';
import { fillDisk, mountSmallDisk, unmountSmallDisk } from '../helpers/smallDisk';

/*
 * An upgrade's migrations change the database for good, and an older Cronbeat refuses what a newer
 * one wrote. Without a copy of the database as it was, going back to the release that worked (a
 * bad upgrade) would cost every monitor, key and alert: the admin is told where the copy is instead.
 */
vi.setConfig({ testTimeout: 60_000 });

const FIXTURE = resolve(__dirname, '../fixtures/release-0.4.0.db');
const FIXTURE_KEY = 'cb_QY0Ocm-PDjhGI-ToHkiW8xzQTpbyapwLAs6G6CUs_gY';

/** The fixture's rows, read from a copy: opening a WAL database, even to read, leaves -wal and -shm files beside it. */
function fixtureContents(): { schema: number; tables: Record<string, unknown[]> } {
  const copy = join(tempFolder(), 'fixture.db');
  copyFileSync(FIXTURE, copy);
  return contents(copy);
}

/** Every row of every table, so two files can be compared for what they hold rather than their bytes. */
function contents(file: string): { schema: number; tables: Record<string, unknown[]> } {
  const db = new Database(file, { readonly: true });
  try {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
    return { schema: db.pragma('user_version', { simple: true }) as number, tables: Object.fromEntries(names.map((name) => [name, db.prepare(`SELECT * FROM "${name}"`).all()])) };
  } finally {
    db.close();
  }
}

const keptCopies = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('cronbeat.db.before-upgrade-'));

describe('upgrading a database from an older release', () => {
  it('keeps the database as it was, private, and names it when an older Cronbeat is put back', async () => {
    const dir = tempFolder('cronbeat-upgrade-');
    copyFileSync(FIXTURE, join(dir, 'cronbeat.db'));
    // An earlier upgrade's copy: one copy is kept, the latest, so upgrades do not fill the disk one database at a time.
    copyFileSync(FIXTURE, join(dir, 'cronbeat.db.before-upgrade-from-schema-3-2025-01-01T00-00-00-000Z'));
    const before = fixtureContents();
    expect(before.schema).toBeLessThan(migrations.length);

    const agent = await startServe(['--data-dir', dir, '--no-popups']);
    await agent.stop();
    expect(contents(join(dir, 'cronbeat.db')).schema).toBe(migrations.length);
    const kept = keptCopies(dir);
    expect(kept).toEqual([expect.stringMatching(new RegExp(`^cronbeat\\.db\\.before-upgrade-from-schema-${before.schema}-\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z$`))]);
    const copy = join(dir, kept[0]!);
    expect(contents(copy)).toEqual(before);
    if (process.platform !== 'win32') expect((statSync(copy).mode & 0o777).toString(8)).toBe('600');

    // A database already up to date, or a new one, gets no copy.
    await (await startServe(['--data-dir', dir, '--no-popups'])).stop();
    expect(keptCopies(dir)).toEqual(kept);
    const fresh = tempFolder();
    await runCli(['token', 'create', '--data-dir', fresh]);
    expect(keptCopies(fresh)).toEqual([]);

    // Back on an older Cronbeat (played here by a database newer than this one), the refusal says how to go back.
    const live = new Database(join(dir, 'cronbeat.db'));
    live.pragma(`user_version = ${migrations.length + 1}`);
    live.close();
    const refused = await runCli(['serve', '--port', '0', '--no-popups', '--data-dir', dir]);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(`; it was left untouched. Its copy from before the upgrade is kept: \`cronbeat restore ${copy}\` brings it back`);

    expect((await runCli(['restore', copy, '--data-dir', dir])).status).toBe(0);
    const back = await startServe(['--data-dir', dir, '--no-popups']);
    try {
      const monitors = await fetch(`${back.url}/api/monitors`, { headers: { authorization: `Bearer ${FIXTURE_KEY}` } });
      expect(monitors.status).toBe(200);
      expect(((await monitors.json()) as unknown[]).length).toBe(before.tables.monitors!.length);
    } finally {
      await back.stop();
    }
  });
});

const disk = mountSmallDisk(2);

describe.skipIf(disk === null)('upgrading on a disk with no room for the copy (tmpfs)', () => {
  it('is refused in one line naming the full disk, changes nothing, and upgrades once there is room', async () => {
    const dir = join(disk!, 'data');
    mkdirSync(dir, { mode: 0o700 });
    copyFileSync(FIXTURE, join(dir, 'cronbeat.db'));
    const before = fixtureContents();
    const filler = fillDisk(disk!);
    try {
      const refused = await runCli(['serve', '--port', '0', '--no-popups', '--data-dir', dir]);
      expect(refused.status).toBe(1);
      expect(refused.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^cronbeat: The disk holding the data folder .* is full/)]);
      expect(keptCopies(dir)).toEqual([]);
    } finally {
      unlinkSync(filler);
    }
    expect(contents(join(dir, 'cronbeat.db'))).toEqual(before);
    await (await startServe(['--data-dir', dir, '--no-popups'])).stop();
    expect(keptCopies(dir)).toHaveLength(1);
  });
});

afterAll(() => {
  if (disk) unmountSmallDisk(disk);
});
