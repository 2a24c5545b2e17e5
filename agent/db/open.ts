import { closeSync, existsSync, openSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from './migrations';
import { ensurePrivateFile } from '../dataFolder/privateFolder';
import { firstDamage, firstDamageInWorker, RESTORE_ADVICE } from './integrity';
import { removeQuietly } from './backupFiles';

export type Db = Database.Database;

/** How to load SQLite: the desktop app in development names an addon built for Electron. */
export interface SqliteOptions {
  nativeBinding?: string;
}

/**
 * Pages the write-ahead log may hold before a commit copies them into the database (SQLite's
 * default is 1,000). The copy stalls that commit, and with it every pulse in flight: at 1,000,
 * 5–7 ms once every ~2,700 pulses, which alone broke the pulse p99. At 10,000 (a WAL of up to
 * 40 MB while the agent runs) pages rewritten many times are copied once: 20% less database
 * time for the same pulses, the stalls ten times rarer. docs/performance.md has the figures.
 */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;

/** Refused databases: a newer schema than this build knows, a file that is not SQLite, a damaged one. */
export class DatabaseRefusedError extends Error {}

/**
 * Opens (creating if needed) the database file, checks every page of it, and brings its schema
 * up to date, each migration in its own transaction so a crash leaves a whole version behind,
 * never half of one.
 */
export function openDatabase(file: string, sqlite: SqliteOptions = {}): Db {
  ensurePrivateFile(file); // before SQLite creates it, so it and its -wal and -shm are 0600
  const db = new Database(file, { nativeBinding: sqlite.nativeBinding });
  try {
    refuseNewerSchema(db, file);
    refuseDamaged(db, file);
    configure(db);
    keepCopyBeforeUpgrade(db, file);
    migrate(db);
    removeQuietly(upgradeMark(file)); // the upgrade is done: the next one keeps a copy of its own
    return db;
  } catch (error) {
    db.close();
    throw refusal(error, file);
  }
}

/**
 * Like openDatabase, but returns at once with a connection that reads and refuses every write
 * (`query_only`), while every page is checked on a connection of its own in a worker thread
 * (the agent answers reads during the check instead of making the admin wait).
 * `checked` resolves once the file is whole, and writes are allowed from then on; it rejects
 * with a DatabaseRefusedError for a damaged file, to which nothing was written. A file that needs
 * a migration (a new one, or one from an older Cronbeat) is checked first, as openDatabase does.
 */
export function openDatabaseCheckingLater(file: string, sqlite: SqliteOptions = {}): { db: Db; checked: Promise<void> } {
  ensurePrivateFile(file);
  const db = new Database(file, { nativeBinding: sqlite.nativeBinding });
  try {
    refuseNewerSchema(db, file);
    if ((db.pragma('user_version', { simple: true }) as number) < migrations.length) {
      db.close();
      return { db: openDatabase(file, sqlite), checked: Promise.resolve() };
    }
    removeQuietly(upgradeMark(file)); // up to date: an upgrade that left it was finished
    db.pragma('query_only = ON');
    configure(db);
  } catch (error) {
    db.close();
    throw refusal(error, file);
  }
  const checked = firstDamageInWorker(file, sqlite.nativeBinding).then(
    (damage) => {
      if (damage) throw damagedError(file, damage);
      db.pragma('query_only = OFF');
    },
    (error: unknown) => {
      throw refusal(error, file);
    },
  );
  return { db, checked };
}

/** Settings of every connection; journal_mode = WAL writes only to a file not yet in WAL mode (a new one). */
function configure(db: Db): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
}

/** An error of opening or checking `file`, in the words a refused database gets. */
function refusal(error: unknown, file: string): unknown {
  if (error instanceof DatabaseRefusedError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new DatabaseRefusedError(`${file} is not a readable Cronbeat database (${code}); it was left untouched. If it held your monitors, ${RESTORE_ADVICE}.`);
  }
  return error;
}

function damagedError(file: string, damage: string): DatabaseRefusedError {
  return new DatabaseRefusedError(`${file} is damaged (integrity check: ${damage}); it was left untouched. To go on, ${RESTORE_ADVICE}.`);
}

/** Runs before anything writes, so a refused file is left exactly as it was. */
function refuseNewerSchema(db: Db, file: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    const copy = copyBeforeUpgrade(file);
    const wayBack = copy
      ? ` Its copy from before the upgrade is kept: \`cronbeat restore ${copy}\` brings it back (what changed since is lost), or run the newer Cronbeat.`
      : '';
    throw new DatabaseRefusedError(
      `The database was written by a newer Cronbeat (schema ${current}, this one knows ${migrations.length}); it was left untouched.${wayBack}`,
    );
  }
}

const UPGRADE_COPY = /\.before-upgrade-from-schema-(\d+)-(.+)$/;

/**
 * An upgrade changes the database for good, and an older Cronbeat refuses what a newer one wrote:
 * the database as it was is kept beside it first (a consistent copy, 0600), so going back to the
 * release that worked costs what changed since, not everything. A copy that cannot be made (a full
 * disk) stops the upgrade before it starts.
 */
function keepCopyBeforeUpgrade(db: Db, file: string): void {
  const schema = db.pragma('user_version', { simple: true }) as number;
  if (schema === 0 || schema >= migrations.length) return;
  // An upgrade killed between two of its migrations left a database of no release: its copy of the
  // release's database is the way back, and is kept rather than replaced by a copy of that.
  if (unfinishedUpgradeCopy(file, schema)) return;
  const copy = `${file}.before-upgrade-from-schema-${schema}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  closeSync(openSync(copy, 'wx', 0o600)); // VACUUM INTO takes an empty file, and keeps its mode
  try {
    db.prepare('VACUUM INTO ?').run(copy);
  } catch (error) {
    unlinkSync(copy);
    throw error;
  }
  // Said before the first migration changes anything: until the upgrade is done, this is its copy.
  writeFileSync(upgradeMark(file), `${basename(copy)}\n`, { mode: 0o600 });
  // One copy, the latest (what the release before this one runs): upgrades do not fill the disk one database at a time.
  for (const name of upgradeCopies(file)) if (join(dirname(file), name) !== copy) unlinkSync(join(dirname(file), name));
}

/** Names the copy of an upgrade under way, from the moment its copy is whole until its last migration. */
export const upgradeMark = (file: string) => `${file}.upgrading`;

/**
 * The copy an unfinished upgrade of `file` kept, when the mark names one that is there and was
 * made from an older schema than `schema` (the database's now); null otherwise.
 */
function unfinishedUpgradeCopy(file: string, schema: number): string | null {
  let name: string;
  try {
    name = readFileSync(upgradeMark(file), 'utf8').trim();
  } catch {
    return null;
  }
  const match = UPGRADE_COPY.exec(name);
  const copy = join(dirname(file), name);
  return match && name.startsWith(`${basename(file)}.`) && Number(match[1]) <= schema && existsSync(copy) ? copy : null;
}

/** The names of the copies keepCopyBeforeUpgrade left beside `file`. */
function upgradeCopies(file: string): string[] {
  return readdirSync(dirname(file)).filter((name) => name.startsWith(`${basename(file)}.before-upgrade-from-schema-`));
}

/** The newest copy keepCopyBeforeUpgrade left beside `file` that this Cronbeat can run; null when none. */
function copyBeforeUpgrade(file: string): string | null {
  const copies = upgradeCopies(file)
    .map((name) => ({ name, match: UPGRADE_COPY.exec(name) }))
    .filter(({ match }) => match && Number(match[1]) <= migrations.length)
    .sort((a, b) => a.match![2]!.localeCompare(b.match![2]!));
  return copies.length ? join(dirname(file), copies[copies.length - 1]!.name) : null;
}

/** A damaged page found now stops the start, before anything writes, rather than a 500 later. */
function refuseDamaged(db: Db, file: string): void {
  const damage = firstDamage(db);
  if (damage) throw damagedError(file, damage);
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version]);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
