import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../agent/db/open';
import { boundByPosition, manyRows, oneRow, unorderedRowsThroughOneJson } from '../../agent/db/rows';
import { createStore } from '../../agent/db/store';
import { tempDir } from '../helpers/testAgent';
import { join } from 'node:path';

describe('manyRows and oneRow', () => {
  it('answers what all() answers: the same keys in the same order, the same values, nulls included', () => {
    const store = createStore(openDatabase(join(tempDir(), 'rows.db')));
    const now = Date.parse('2026-11-25T10:00:00Z');
    store.companies.ensure(1, now);
    for (let i = 0; i < 50; i++) {
      store.monitors.create({
        companyId: 1, name: `job ${i} "quoted" \u00e9`, projectId: i % 3 === 0 ? null : i, token: `t-${i}`, timezone: 'Europe/Paris',
        schedule: `${i % 60} * * * *`, duration: 5 + i, expectedRunAt: now + i, dueAt: i % 4 === 0 ? null : now + 60_000 * i, now,
      });
    }
    const sql = 'SELECT * FROM monitors WHERE company_id = ? AND deleted_at IS NULL ORDER BY id';
    const expected = store.db.prepare(sql).all(1);
    const rows = manyRows(store.db, sql)(1);
    expect(rows).toEqual(expected);
    expect(rows.map((row) => Object.keys(row as object))).toEqual(expected.map((row) => Object.keys(row as object)));
    expect(store.monitors.list(1)).toEqual(expected);
    // One row: the same, and null for none.
    const one = 'SELECT * FROM monitors WHERE token = ? AND deleted_at IS NULL';
    expect(oneRow(store.db, one)('t-7')).toEqual(store.db.prepare(one).get('t-7'));
    expect(Object.keys(oneRow(store.db, one)('t-7') as object)).toEqual(Object.keys(store.db.prepare(one).get('t-7') as object));
    expect(oneRow(store.db, one)('nope')).toBeNull();
    store.close();
  });

  it('refuses a query whose columns share a name (one would hide the other)', () => {
    const db = openDatabase(join(tempDir(), 'dup.db'));
    expect(() => manyRows(db, "SELECT 1 AS a, 2 AS a")).toThrow(/duplicate column/);
    db.close();
  });
});

describe('unorderedRowsThroughOneJson', () => {
  it('answers the rows all() answers, in some order: integers, reals, text with quotes and unicode, nulls; none as an empty list', () => {
    const db = openDatabase(join(tempDir(), 'oneJson.db'));
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, r REAL, s TEXT, k TEXT)');
    const insert = db.prepare('INSERT INTO t (n, r, s, k) VALUES (?, ?, ?, ?)');
    for (let i = 0; i < 40; i++) {
      insert.run(i % 5 === 0 ? null : i * 1_000_000_007, i % 7 === 0 ? null : i / 3, i % 4 === 0 ? null : `"q\\ \u00e9 \u{1F600} \n${i}`, i % 2 ? 'odd' : 'even');
    }
    const columns = ['id', 'n', 'r', 's'];
    const rest = 'FROM t WHERE k = ?';
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    const read = unorderedRowsThroughOneJson<{ id: number }>(db, columns, rest);
    for (const k of ['odd', 'even']) {
      const expected = db.prepare(`SELECT ${columns.join(', ')} ${rest} ORDER BY id`).all(k) as Array<{ id: number }>;
      const rows = read(k).sort(byId);
      expect(rows).toEqual(expected);
      expect(rows.map((row) => Object.keys(row))).toEqual(expected.map((row) => Object.keys(row)));
    }
    expect(read('none')).toEqual([]);
    db.close();
  });
});

describe('boundByPosition', () => {
  it('binds what the named parameters would, a name used twice included, and no @ inside a quoted string', () => {
    const db = openDatabase(join(tempDir(), 'bound.db'));
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c TEXT)");
    db.prepare("INSERT INTO t VALUES (1, 'x', 0, NULL)").run();
    const sql = "UPDATE t SET a = @text, b = CASE WHEN @flag = 1 THEN @count ELSE b END, c = @text || '@not_a_name' WHERE id = @id";
    const bound = boundByPosition<{ text: string; flag: number; count: number; id: number }>(sql);
    expect(bound.sql).toBe("UPDATE t SET a = ?, b = CASE WHEN ? = 1 THEN ? ELSE b END, c = ? || '@not_a_name' WHERE id = ?");
    expect(bound.argsOf({ id: 1, count: 7, flag: 1, text: "it's" })).toEqual(["it's", 1, 7, "it's", 1]);
    db.prepare(bound.sql).run(...bound.argsOf({ id: 1, count: 7, flag: 1, text: "it's" }));
    expect(db.prepare('SELECT a, b, c FROM t').get()).toEqual({ a: "it's", b: 7, c: "it's@not_a_name" });
  });
});
