import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { DatabaseRefusedError, openDatabase, WAL_AUTOCHECKPOINT_PAGES } from '../../agent/db/open';
import { migrations } from '../../agent/db/migrations';
import { openStore } from '../../agent/db/store';
import { resolveDataDir } from '../../agent/dataFolder/dataDir';
import { tempDir } from '../helpers/testAgent';

const require = createRequire(import.meta.url);

describe('openDatabase', () => {
  it('migrates a new file to the latest version with WAL and foreign keys on', () => {
    const db = openDatabase(join(tempDir(), 'a.db'));
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
    db.close();
  });

  it('lets the write-ahead log grow to 10,000 pages, every commit visible and kept before any copy into the file', () => {
    const file = join(tempDir(), 'wal.db');
    const db = openDatabase(file);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_AUTOCHECKPOINT_PAGES);
    db.exec('CREATE TABLE t (x TEXT)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 2_000; i++) insert.run('x'.repeat(3_000)); // ~2,000 pages, each its own commit
    // Nothing copied into the file yet (fewer pages than the limit), yet another connection reads it all.
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(2_000 * 4096);
    const reader = new Database(file, { readonly: true });
    expect(reader.prepare('SELECT count(*) FROM t').pluck().get()).toBe(2_000);
    reader.close();
    db.close(); // the last connection copies the log into the file and removes it
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = openDatabase(file);
    expect(reopened.prepare('SELECT count(*) FROM t').pluck().get()).toBe(2_000);
    reopened.close();
  });

  it('reopens a migrated file without touching its data', () => {
    const file = join(tempDir(), 'b.db');
    const store = openStore(file, 1000);
    store.servers.create({ companyId: 1, name: 's', identifier: 'i', ipAddress: '::1', now: 1000 });
    store.close();
    const again = openStore(file, 2000);
    expect(again.servers.list(1)).toHaveLength(1);
    again.close();
  });

  it('refuses a database from a newer Cronbeat and leaves it untouched', () => {
    const file = join(tempDir(), 'c.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${migrations.length + 5}`);
    raw.close();
    const before = readFileSync(file);
    expect(() => openDatabase(file)).toThrow(DatabaseRefusedError);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('refuses a file that is not a database and leaves it untouched', () => {
    const file = join(tempDir(), 'd.db');
    writeFileSync(file, 'this is not sqlite, just some text that happens to be long enough to matter'.repeat(100));
    const before = readFileSync(file);
    expect(() => openDatabase(file)).toThrow(DatabaseRefusedError);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('gives a fresh install company 1', () => {
    const store = openStore(join(tempDir(), 'e.db'), 0);
    expect(store.companies.exists(1)).toBe(true);
    store.close();
  });
});

describe('resolveDataDir', () => {
  const home = '/home/ada';
  it('prefers the flag, then CRONBEAT_DATA_DIR, then the OS folder', () => {
    expect(resolveDataDir({ flag: '/x', env: { CRONBEAT_DATA_DIR: '/y' }, platform: 'linux', home })).toBe('/x');
    expect(resolveDataDir({ env: { CRONBEAT_DATA_DIR: '/y' }, platform: 'linux', home })).toBe('/y');
    expect(resolveDataDir({ env: {}, platform: 'linux', home })).toBe('/home/ada/.local/share/cronbeat');
    expect(resolveDataDir({ env: { XDG_DATA_HOME: '/xdg' }, platform: 'linux', home })).toBe('/xdg/cronbeat');
    expect(resolveDataDir({ env: { XDG_DATA_HOME: 'xdg' }, platform: 'linux', home })).toBe('/home/ada/.local/share/cronbeat');
    expect(resolveDataDir({ env: {}, platform: 'darwin', home })).toBe('/home/ada/Library/Application Support/Cronbeat');
    expect(resolveDataDir({ env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, platform: 'win32', home })).toMatch(/Roaming.Cronbeat$/);
  });
});

describe('the SQLite addon', () => {
  it('loads the addon it is given (how the desktop app uses an Electron build in development)', () => {
    const nativeBinding = require.resolve('better-sqlite3/build/Release/better_sqlite3.node');
    const db = openDatabase(join(tempDir(), 'f.db'), { nativeBinding });
    expect(db.pragma('user_version', { simple: true })).toBe(migrations.length);
    db.close();
  });

  it('refuses an addon path that does not exist instead of silently using another', () => {
    expect(() => openDatabase(join(tempDir(), 'g.db'), { nativeBinding: '/nowhere/better_sqlite3.node' })).toThrow();
  });
});

describe('migration 7', () => {
  it('counts the pulses each monitor already keeps, so trimming starts from the truth', () => {
    const file = join(tempDir(), 'h.db');
    const old = new Database(file);
    old.exec(migrations.slice(0, 6).join('\n'));
    old.pragma('user_version = 6');
    old.exec(`INSERT INTO companies (id, name, created_at) VALUES (1, 'c', 0);
      INSERT INTO monitors (id, company_id, name, token, timezone, schedule, duration, last_run_at, created_at, updated_at)
      VALUES (1, 1, 'a', 't1', 'UTC', '* * * * *', 1, 0, 0, 0), (2, 1, 'b', 't2', 'UTC', '* * * * *', 1, 0, 0, 0);
      INSERT INTO pulses (monitor_id, kind, received_at, method) VALUES (1, 'success', 1, 'GET'), (1, 'success', 2, 'GET');`);
    old.close();
    const db = openDatabase(file);
    expect(db.prepare('SELECT id, pulses_kept FROM monitors ORDER BY id').all()).toEqual([
      { id: 1, pulses_kept: 2 },
      { id: 2, pulses_kept: 0 },
    ]);
    db.close();
  });
});
