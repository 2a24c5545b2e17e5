import type { Db } from './open';

export function companyRepository(db: Db) {
  const insertIfMissing = db.prepare(
    'INSERT OR IGNORE INTO companies (id, name, created_at) VALUES (@id, @name, @now)',
  );
  const exists = db.prepare('SELECT 1 FROM companies WHERE id = ?').pluck();
  const ids = db.prepare('SELECT id FROM companies ORDER BY id').pluck();

  return {
    /** Makes sure company `id` exists (a fresh install has company 1). */
    ensure(id: number, now: number): void {
      insertIfMissing.run({ id, name: id === 1 ? 'My company' : `Company ${id}`, now });
    },
    exists(id: number): boolean {
      return exists.get(id) !== undefined;
    },
    ids(): number[] {
      return ids.all() as number[];
    },
  };
}
