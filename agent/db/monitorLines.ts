import type { Db } from './open';
import type { MonitorRow } from './monitors';
import type { FieldChanges } from '../domain/monitors/ownLine';
import { slugOf } from '../domain/monitors/ownLine';
import type { MonitorStatusFacts } from '../domain/monitors/status';
import { unorderedRowsThroughOneJson } from './rows';

export interface LineMonitor {
  companyId: number;
  slug: string;
  name: string;
  token: string;
  timezone: string;
  schedule: string;
  duration: number;
  maxRuntime: number | null;
  alertAfter?: number;
  tags: string;
  /** The key whose line makes it. */
  lineKeyId: number;
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
    `INSERT INTO monitors (company_id, name, slug, token, timezone, schedule, duration, max_runtime, alert_after, tags, line_key_id,
                           last_run_at, expected_run_at, due_at, created_at, updated_at)
     VALUES (@companyId, @name, @slug, @token, @timezone, @schedule, @duration, @maxRuntime, @alertAfter, @tags, @lineKeyId, @now, @expectedRunAt, @dueAt, @now, @now)
     ON CONFLICT (company_id, slug) WHERE deleted_at IS NULL AND slug IS NOT NULL DO NOTHING
     RETURNING *`,
  );
  const bySlug = db.prepare('SELECT * FROM monitors WHERE company_id = ? AND slug = ? AND deleted_at IS NULL');
  // Through monitor_tags (migration 25): the tag's own monitors, never a scan of the company's.
  // Only what a status is read from: a badge of thousands of monitors builds no full rows. In no
  // order: a badge is the same whatever the order of its monitors' statuses.
  const withTag = unorderedRowsThroughOneJson<MonitorStatusFacts>(
    db,
    ['paused_at', 'is_alerted', 'running_since', 'last_pulse_at', 'resumed_at'],
    'FROM monitor_tags t JOIN monitors m ON m.id = t.monitor_id WHERE t.company_id = ? AND t.tag = ? AND m.deleted_at IS NULL',
  );
  db.function('slug_of', { deterministic: true }, (name) => slugOf(String(name)) ?? null);
  // A monitor made in the dashboard (no slug) whose name has the slug: a line may not take it over, and is told so.
  const namedLike = db.prepare(
    `SELECT * FROM monitors WHERE company_id = @companyId AND slug IS NULL AND deleted_at IS NULL AND slug_of(name) = @slug
     ORDER BY id LIMIT 1`,
  );
  const countByKey = db.prepare('SELECT count(*) AS n FROM monitors WHERE line_key_id = ? AND deleted_at IS NULL');
  const handTo = db.prepare('UPDATE monitors SET line_key_id = @keyId, slug = @slug, updated_at = @now WHERE id = @id AND deleted_at IS NULL');
  const setTags = db.prepare('UPDATE monitors SET tags = @tags, updated_at = @now WHERE id = @id AND deleted_at IS NULL');
  const insertChange = db.prepare(
    'INSERT INTO monitor_changes (monitor_id, at, source, changes) VALUES (@monitorId, @at, @source, @changes)',
  );
  const changes = db.prepare('SELECT * FROM monitor_changes WHERE monitor_id = ? ORDER BY at DESC, id DESC LIMIT ?');
  const heldByKey = db.prepare('SELECT id, company_id FROM monitors WHERE line_key_id = ? AND deleted_at IS NULL ORDER BY id');

  return {
    /** Inserts the line's monitor unless the company has a live one with that slug; null then. */
    insert(input: LineMonitor): MonitorRow | null {
      return (insert.get({ alertAfter: 1, ...input }) as MonitorRow | undefined) ?? null;
    },
    findBySlug(companyId: number, slug: string): MonitorRow | null {
      return (bySlug.get(companyId, slug) as MonitorRow | undefined) ?? null;
    },
    /** What the statuses of the company's live monitors with this tag are read from, in no order. */
    withTag(companyId: number, tag: string): MonitorStatusFacts[] {
      return withTag(companyId, tag);
    },
    /** The company's oldest live monitor without a slug whose name has this one (made in the dashboard); null when none. */
    namedLike(companyId: number, slug: string): MonitorRow | null {
      return (namedLike.get({ companyId, slug }) as MonitorRow | undefined) ?? null;
    },
    /** How many live monitors the lines of key `keyId` have (made, or been handed). */
    countByKey(keyId: number): number {
      return (countByKey.get(keyId) as { n: number }).n;
    },
    /** Makes the monitor the line of key `keyId`'s, matched by `slug`. */
    handTo(id: number, keyId: number, slug: string, now: number): void {
      handTo.run({ id, keyId, slug, now });
    },
    setTags(id: number, tags: readonly string[], now: number): void {
      setTags.run({ id, tags: tags.join(' '), now });
    },
    recordChange(monitorId: number, at: number, source: 'line' | 'api', fieldChanges: FieldChanges): void {
      insertChange.run({ monitorId, at, source, changes: JSON.stringify(fieldChanges) });
    },
    /** The live monitors the lines of key `keyId` hold, by id. */
    heldByKey(keyId: number): Array<{ id: number; company_id: number }> {
      return heldByKey.all(keyId) as Array<{ id: number; company_id: number }>;
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
