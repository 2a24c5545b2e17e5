import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { useSqliteBinding } from '../../main/sqliteBinding';

const require = createRequire(import.meta.url);

describe('the Electron build of better-sqlite3 in development', () => {
  it('answers better-sqlite3’s binding lookup with the named file', () => {
    const fromSqlite = createRequire(require.resolve('better-sqlite3'));
    const bindingsModule = fromSqlite.resolve('bindings');
    const binding = require.resolve('better-sqlite3/build/Release/better_sqlite3.node');
    const before = fromSqlite.cache[bindingsModule];
    try {
      useSqliteBinding(binding);
      const lookup = fromSqlite('bindings') as (name: string) => unknown;
      expect(lookup('better_sqlite3.node')).toBe(fromSqlite(binding));
      const Database = fromSqlite('better-sqlite3') as new (file: string) => { prepare(sql: string): { get(): unknown }; close(): void };
      const db = new Database(':memory:');
      expect(db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
      db.close();
    } finally {
      if (before) fromSqlite.cache[bindingsModule] = before;
      else delete fromSqlite.cache[bindingsModule];
    }
  });

  it('changes nothing when the variable is unset', () => {
    expect(() => useSqliteBinding(undefined)).not.toThrow();
  });
});
