import Database, { type Database as Db } from 'better-sqlite3';

/**
 * Every row of every table of `db` as text, to compare before and after a refused request. Reading
 * it all for each request was a third of the bad-input test's time, so the last dump is given again
 * while nothing was committed since: a second connection's data_version changes whenever another
 * connection commits to the file, whatever it changed.
 */
export function databaseDumper(db: Db): { dump(): string; close(): void } {
  const watcher = new Database(db.name, { readonly: true, fileMustExist: true });
  const dataVersion = watcher.prepare('PRAGMA data_version').pluck();
  let last: { version: unknown; text: string } | undefined;
  const readAll = () => {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
    // Rows sorted as text: a WITHOUT ROWID table (monitor_tags) has no rowid to order by.
    return JSON.stringify(tables.map((table) => [table, db.prepare(`SELECT * FROM "${table}"`).all().map((row) => JSON.stringify(row)).sort()]));
  };
  return {
    dump() {
      // The version before the read: a commit during it makes the next call read again.
      const version = dataVersion.get();
      if (last === undefined || last.version !== version) last = { version, text: readAll() };
      return last.text;
    },
    close: () => watcher.close(),
  };
}
