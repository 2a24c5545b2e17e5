import type { Db } from './open';

export interface MonitorRow {
  id: number;
  company_id: number;
  name: string;
  project_id: number | null;
  token: string;
  timezone: string;
  schedule: string;
  duration: number;
  last_run_at: number;
  is_alerted: number;
  alert_reason: string;
  due_at: number | null;
  deleted_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface NewMonitor {
  companyId: number;
  name: string;
  projectId: number | null;
  token: string;
  timezone: string;
  schedule: string;
  duration: number;
  dueAt: number | null;
  now: number;
}

/** Job monitors of a company; deleted ones are kept (soft delete) but never listed or found. */
export function monitorRepository(db: Db) {
  const list = db.prepare('SELECT * FROM monitors WHERE company_id = ? AND deleted_at IS NULL ORDER BY id');
  const find = db.prepare('SELECT * FROM monitors WHERE id = ? AND company_id = ? AND deleted_at IS NULL');
  const findByToken = db.prepare('SELECT * FROM monitors WHERE token = ? AND deleted_at IS NULL');
  const insert = db.prepare(
    `INSERT INTO monitors (company_id, name, project_id, token, timezone, schedule, duration,
                           last_run_at, due_at, created_at, updated_at)
     VALUES (@companyId, @name, @projectId, @token, @timezone, @schedule, @duration, @now, @dueAt, @now, @now)`,
  );
  const softDelete = db.prepare(
    `UPDATE monitors SET deleted_at = @now, updated_at = @now, due_at = NULL
     WHERE id = @id AND company_id = @companyId AND deleted_at IS NULL`,
  );

  return {
    list(companyId: number): MonitorRow[] {
      return list.all(companyId) as MonitorRow[];
    },
    find(companyId: number, id: number): MonitorRow | null {
      return (find.get(id, companyId) as MonitorRow | undefined) ?? null;
    },
    /** The live monitor with that pulse token, whatever its company (the token is the secret). */
    findByToken(token: string): MonitorRow | null {
      return (findByToken.get(token) as MonitorRow | undefined) ?? null;
    },
    create(input: NewMonitor): MonitorRow {
      const { lastInsertRowid } = insert.run(input);
      return find.get(lastInsertRowid, input.companyId) as MonitorRow;
    },
    /** Returns false when there was no such live monitor. */
    delete(companyId: number, id: number, now: number): boolean {
      return softDelete.run({ id, companyId, now }).changes === 1;
    },
  };
}
