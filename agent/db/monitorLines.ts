import type { Db } from './open';
import type { MonitorRow } from './monitors';
import type { FieldChanges } from '../domain/monitorLine';
import { slugOf } from '../domain/monitorLine';

export interface LineMonitor {
  companyId: number;
  slug: string;
  name: string;
  token: string;
  timezone: string;
  schedule: string;
  duration: number;
  tags: string;
  expectedRunAt: number | null;
  dueAt: number | null;
  now: number;
}

export interface MonitorChangeRow {
  id: number;
  monitor_id: number;
  at: number;
  source: 'line' | 'api';
  changes: string;
}

/** Monitors by slug (made by a job's line), their tags, and the history of their settings. */
export function monitorLineRepository(db: Db) {
  // The unique index monitors_live_slug makes this the one place a line's monitor is created:
  // of two runs starting at once, one inserts and the other gets nothing back and finds it.
  const insert = db.prepare(
    `INSERT INTO monitors (company_id, name, slug, token, timezone, schedule, duration, tags,
                           last_run_at, expected_run_at, due_at, created_at, updated_at)
     VALUES (@companyId, @name, @slug, @token, @timezone, @schedule, @duration, @tags, @now, @expectedRunAt, @dueAt, @now, @now)
     ON CONFLICT (company_id, slug) WHERE deleted_at IS NULL AND slug IS NOT NULL DO NOTHING
     RETURNING *`,
  );
  const bySlug = db.prepare('SELECT * FROM monitors WHERE company_id = ? AND slug = ? AND deleted_at IS NULL');
  db.function('slug_of', { deterministic: true }, (name) => slugOf(String(name)) ?? null);
  // A monitor made in the dashboard before its line existed is the line's when its name has the slug.
  const adopt = db.prepare(
    `UPDATE monitors SET slug = @slug WHERE id = (
       SELECT id FROM monitors WHERE company_id = @companyId AND slug IS NULL AND deleted_at IS NULL AND slug_of(name) = @slug
       ORDER BY id LIMIT 1)
     RETURNING *`,
  );
  const setTags = db.prepare('UPDATE monitors SET tags = @tags, updated_at = @now WHERE id = @id AND deleted_at IS NULL');
  const insertChange = db.prepare(
    'INSERT INTO monitor_changes (monitor_id, at, source, changes) VALUES (@monitorId, @at, @source, @changes)',
  );
  const changes = db.prepare('SELECT * FROM monitor_changes WHERE monitor_id = ? ORDER BY at DESC, id DESC LIMIT ?');

  return {
    /** Inserts the line's monitor unless the company has a live one with that slug; null then. */
    insert(input: LineMonitor): MonitorRow | null {
      return (insert.get(input) as MonitorRow | undefined) ?? null;
    },
    findBySlug(companyId: number, slug: string): MonitorRow | null {
      return (bySlug.get(companyId, slug) as MonitorRow | undefined) ?? null;
    },
    /** Gives the slug to the company's oldest live monitor without one whose name has it; null when there is none. */
    adopt(companyId: number, slug: string): MonitorRow | null {
      return (adopt.get({ companyId, slug }) as MonitorRow | undefined) ?? null;
    },
    setTags(id: number, tags: readonly string[], now: number): void {
      setTags.run({ id, tags: tags.join(' '), now });
    },
    recordChange(monitorId: number, at: number, source: 'line' | 'api', fieldChanges: FieldChanges): void {
      insertChange.run({ monitorId, at, source, changes: JSON.stringify(fieldChanges) });
    },
    /** A monitor's setting changes, newest first. */
    changes(monitorId: number, limit = 100): MonitorChangeRow[] {
      return changes.all(monitorId, limit) as MonitorChangeRow[];
    },
  };
}

/** A stored tags column as a list. */
export function tagsOf(row: Pick<MonitorRow, 'tags'>): string[] {
  return row.tags ? row.tags.split(' ') : [];
}
