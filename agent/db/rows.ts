import type { Db } from './open';

/**
 * A query for many rows, answered as `db.prepare(sql).all(...)` would, faster. better-sqlite3 builds
 * each row object one property at a time, a slow path in V8 that for the monitors' 29 columns took
 * three times as long as reading the rows. Here the rows come as arrays and each
 * object is made by one object literal naming the statement's columns, compiled once: the same
 * keys in the same order and values, in objects of one fixed shape.
 */
export function manyRows<T>(db: Db, sql: string): (...params: unknown[]) => T[] {
  const { statement, toObject } = rowsAsObjects<T>(db, sql);
  return (...params) => {
    const raw = statement.all(...params) as unknown[][];
    const rows = new Array<T>(raw.length);
    for (let i = 0; i < raw.length; i++) rows[i] = toObject(raw[i]!);
    return rows;
  };
}

/** Like manyRows for `db.prepare(sql).get(...)`: the first row or null. Finding a monitor by its token (every pulse) took 20 µs the other way. */
export function oneRow<T>(db: Db, sql: string): (...params: unknown[]) => T | null {
  const { statement, toObject } = rowsAsObjects<T>(db, sql);
  return (...params) => {
    const raw = statement.get(...params) as unknown[] | undefined;
    return raw === undefined ? null : toObject(raw);
  };
}

function rowsAsObjects<T>(db: Db, sql: string) {
  const statement = db.prepare(sql).raw(true);
  const columns = statement.columns().map((column) => column.name);
  if (new Set(columns).size !== columns.length) throw new Error(`duplicate column names in ${sql}`);
  // The names are the schema's own columns, quoted as JSON: the compiled source holds no value.
  const toObject = new Function('r', `return { ${columns.map((name, i) => `${JSON.stringify(name)}: r[${i}]`).join(', ')} };`) as (row: unknown[]) => T;
  return { statement, toObject };
}
