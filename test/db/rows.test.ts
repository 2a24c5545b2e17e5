import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../agent/db/open';
import { manyRows, oneRow } from '../../agent/db/rows';
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
