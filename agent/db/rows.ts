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

/**
 * Like manyRows for the columns named (plain column names) and the rest of a SELECT after them
 * (`FROM … WHERE …`), for a long list, in two steps: `texts` answers each row as the one JSON
 * array SQLite wrote of its values, `rowOf` makes the row of one (V8 parses it). Node 20's
 * better-sqlite3 still hands over every value by a call into V8, about 60 ns each even for a
 * null: 10,000 monitors of 27 columns took 34 ms that way, 20 ms this way. JSON keeps SQLite's
 * integers, reals and text as better-sqlite3 gives them (test/db/rows.test.ts compares the two);
 * not blobs, which json_array refuses. The text says all the row does: a reader may keep what it
 * made of a row and use it again while the row's text is the same.
 */
export function rowTextsThroughJson<T>(db: Db, columns: readonly string[], rest: string) {
  const statement = db.prepare(`SELECT json_array(${columns.join(', ')}) ${rest}`).pluck(true);
  const toObject = objectOfArray<T>(columns, rest);
  return {
    texts: (...params: unknown[]): string[] => statement.all(...params) as string[],
    rowOf: (text: string): T => toObject(JSON.parse(text) as unknown[]),
  };
}

/**
 * Like rowTextsThroughJson for rows whose order does not matter: SQLite gathers them all into one
 * JSON text (json_group_array), which V8 parses in one call. A tag badge's 500 monitors took 0.4 ms
 * read as rows, sorted, a value at a time; 0.2 ms this way. The rows come in no promised order.
 */
export function unorderedRowsThroughOneJson<T>(db: Db, columns: readonly string[], rest: string): (...params: unknown[]) => T[] {
  const statement = db.prepare(`SELECT json_group_array(json_array(${columns.join(', ')})) ${rest}`).pluck(true);
  const toObject = objectOfArray<T>(columns, rest);
  return (...params) => (JSON.parse(statement.get(...params) as string) as unknown[][]).map(toObject);
}

function rowsAsObjects<T>(db: Db, sql: string) {
  const statement = db.prepare(sql).raw(true);
  const toObject = objectOfArray<T>(
    statement.columns().map((column) => column.name),
    sql,
  );
  return { statement, toObject };
}

/** An object literal naming the columns, compiled once, filled from a row's array of values. */
function objectOfArray<T>(columns: readonly string[], sql: string): (row: unknown[]) => T {
  if (new Set(columns).size !== columns.length) throw new Error(`duplicate column names in ${sql}`);
  // The names are the schema's own columns, quoted as JSON: the compiled source holds no value.
  return new Function('r', `return { ${columns.map((name, i) => `${JSON.stringify(name)}: r[${i}]`).join(', ')} };`) as (row: unknown[]) => T;
}

/**
 * SQL written with named parameters (`@name`), bound by position: better-sqlite3 looks each name
 * up in the values object through V8's slow path, which for the 14 of a pulse's monitor UPDATE
 * cost more than a tenth of the statement. `argsOf` reads them with one compiled literal, in the
 * order of the `?` that replace them (a name used twice is read twice).
 */
export function boundByPosition<T extends object>(sql: string): { sql: string; argsOf: (values: T) => unknown[] } {
  const names: string[] = [];
  // A quoted string is passed over whole: an @ inside it is text, not a parameter.
  const positional = sql.replace(/'(?:[^']|'')*'|@([A-Za-z_][A-Za-z0-9_]*)/g, (found: string, name: string | undefined) => {
    if (name === undefined) return found;
    names.push(name);
    return '?';
  });
  // The names are identifiers matched above: the compiled source holds no value.
  const argsOf = new Function('v', `return [${names.map((name) => `v.${name}`).join(', ')}];`) as (values: T) => unknown[];
  return { sql: positional, argsOf };
}
