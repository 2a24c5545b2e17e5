import type { MaintenanceWindow } from '../domain/maintenance/windows';
import type { Db } from './open';

/** A maintenance window as stored: monitor_ids and tags are JSON lists. */
export interface MaintenanceWindowRow {
  id: number;
  company_id: number;
  name: string;
  starts_at: number | null;
  ends_at: number | null;
  schedule: string | null;
  timezone: string | null;
  duration: number | null;
  monitor_ids: string;
  tags: string;
  created_at: number;
  updated_at: number;
}

/** A window's stored fields, as a create or an edit writes them. */
export interface MaintenanceWindowFields {
  name: string;
  startsAt: number | null;
  endsAt: number | null;
  schedule: string | null;
  timezone: string | null;
  durationMinutes: number | null;
  monitorIds: number[];
  tags: string[];
}

/** The rules' view of a stored window (agent/domain/maintenance/windows.ts). */
export function windowOf(row: MaintenanceWindowRow): MaintenanceWindow {
  return {
    id: row.id,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    schedule: row.schedule,
    timezone: row.timezone,
    durationMinutes: row.duration,
    monitorIds: JSON.parse(row.monitor_ids) as number[],
    tags: JSON.parse(row.tags) as string[],
  };
}

/**
 * Maintenance windows. Every pulse asks whether its monitor is in maintenance, so each company's
 * windows are kept in memory, read again after a write: this process is the database's only writer.
 */
export function maintenanceWindowRepository(db: Db) {
  const ofCompany = db.prepare('SELECT * FROM maintenance_windows WHERE company_id = ? ORDER BY id');
  const find = db.prepare('SELECT * FROM maintenance_windows WHERE company_id = ? AND id = ?');
  const insert = db.prepare(
    `INSERT INTO maintenance_windows (company_id, name, starts_at, ends_at, schedule, timezone, duration, monitor_ids, tags, created_at, updated_at)
     VALUES (@companyId, @name, @startsAt, @endsAt, @schedule, @timezone, @durationMinutes, @monitorIds, @tags, @now, @now)`,
  );
  const update = db.prepare(
    `UPDATE maintenance_windows SET name = @name, starts_at = @startsAt, ends_at = @endsAt, schedule = @schedule, timezone = @timezone,
       duration = @durationMinutes, monitor_ids = @monitorIds, tags = @tags, updated_at = @now
     WHERE company_id = @companyId AND id = @id`,
  );
  const remove = db.prepare('DELETE FROM maintenance_windows WHERE company_id = ? AND id = ?');
  const cache = new Map<number, { rows: MaintenanceWindowRow[]; windows: MaintenanceWindow[] }>();

  const cached = (companyId: number) => {
    let entry = cache.get(companyId);
    if (!entry) {
      const rows = ofCompany.all(companyId) as MaintenanceWindowRow[];
      entry = { rows, windows: rows.map(windowOf) };
      cache.set(companyId, entry);
    }
    return entry;
  };
  const stored = (fields: MaintenanceWindowFields) => ({
    ...fields,
    monitorIds: JSON.stringify(fields.monitorIds),
    tags: JSON.stringify(fields.tags),
  });

  return {
    /** The company's windows, oldest first. */
    list(companyId: number): MaintenanceWindowRow[] {
      return cached(companyId).rows;
    },
    /** The company's windows as the rules read them (kept in memory between writes). */
    windows(companyId: number): MaintenanceWindow[] {
      return cached(companyId).windows;
    },
    find(companyId: number, id: number): MaintenanceWindowRow | null {
      return (find.get(companyId, id) as MaintenanceWindowRow | undefined) ?? null;
    },
    create(companyId: number, fields: MaintenanceWindowFields, now: number): MaintenanceWindowRow {
      const { lastInsertRowid } = insert.run({ ...stored(fields), companyId, now });
      cache.delete(companyId);
      return find.get(companyId, lastInsertRowid) as MaintenanceWindowRow;
    },
    edit(companyId: number, id: number, fields: MaintenanceWindowFields, now: number): MaintenanceWindowRow | null {
      update.run({ ...stored(fields), companyId, id, now });
      cache.delete(companyId);
      return (find.get(companyId, id) as MaintenanceWindowRow | undefined) ?? null;
    },
    /** Deletes a window; false when the company has none with that id. */
    delete(companyId: number, id: number): boolean {
      const changed = remove.run(companyId, id).changes === 1;
      cache.delete(companyId);
      return changed;
    },
  };
}
