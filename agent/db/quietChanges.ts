import type { Db } from './open';
import type { ReportEvent } from '../domain/reports/numbers';

/*
 * A monitor's changes between failed and fine that raised no failed or recovered notification: the
 * one flapping sent its flapping alert in place of, those it kept quiet after, and a failure short of
 * its alert after N with its quiet recovery (migration 34). The notifications alone would leave a
 * report blind to them: a monitor that flapped for an hour would read as failed for one stretch, or
 * none. Never listed, never sent: a report reads them. Pruned (agent/engine/notificationPruning.ts)
 * once no report can read them: past their retention (agent/domain/alerts/quietChangeRetention.ts),
 * or their monitor deleted (a report lists live monitors only, and a deleted one never comes back).
 */

/** Where a page of quiet changes ended. */
export interface QuietCursor {
  at: number;
  id: number;
}

export function quietChangeRepository(db: Db) {
  const insert = db.prepare(
    'INSERT INTO quiet_changes (company_id, monitor_id, at, kind, reason) VALUES (@companyId, @monitorId, @at, @kind, @reason)',
  );
  // Oldest first, a page after (@at, @id) at a time along the index, so a month of a flapping fleet is read in slices.
  const since = db.prepare(
    `SELECT id, monitor_id, at, kind, reason FROM quiet_changes
     WHERE company_id = @companyId AND at >= @from AND (at > @at OR (at = @at AND id > @id))
     ORDER BY at, id LIMIT @limit`,
  );
  // The company's oldest first, along quiet_changes_by_time: a batch reads only the rows it deletes.
  const pruneOld = db.prepare(
    `DELETE FROM quiet_changes WHERE id IN (
       SELECT id FROM quiet_changes WHERE company_id = @companyId AND at < @before ORDER BY at, id LIMIT @limit)`,
  );
  // A company's monitors are few beside their changes; each deleted one is looked up in quiet_changes_by_monitor (migration 39).
  const deletedWithChanges = db
    .prepare(
      `SELECT m.id FROM monitors m WHERE m.company_id = ? AND m.deleted_at IS NOT NULL
         AND EXISTS (SELECT 1 FROM quiet_changes q WHERE q.monitor_id = m.id) ORDER BY m.id`,
    )
    .pluck();
  const pruneMonitor = db.prepare('DELETE FROM quiet_changes WHERE id IN (SELECT id FROM quiet_changes WHERE monitor_id = @monitorId LIMIT @limit)');
  return {
    /** Notes that the monitor turned failed (with why: the reason's kind) or recovered at `at`, without an alert. */
    record(companyId: number, monitorId: number, at: number, kind: 'failed' | 'recovered', reason: string | null): void {
      insert.run({ companyId, monitorId, at, kind, reason });
    },
    /**
     * The company's quiet changes from `from` on, after `after` (null: from the first), at most `limit`, oldest
     * first, added to `byMonitor`; where the page ended, or null when none was left.
     */
    page(companyId: number, from: number, after: QuietCursor | null, limit: number, byMonitor: Map<number, ReportEvent[]>): QuietCursor | null {
      const rows = since.all({ companyId, from, at: after?.at ?? -1, id: after?.id ?? 0, limit }) as Array<ReportEvent & { id: number; monitor_id: number }>;
      for (const row of rows) {
        const event: ReportEvent = { at: row.at, kind: row.kind, reason: row.reason };
        const list = byMonitor.get(row.monitor_id);
        if (list) list.push(event);
        else byMonitor.set(row.monitor_id, [event]);
      }
      const last = rows[rows.length - 1];
      return rows.length < limit || !last ? null : { at: last.at, id: last.id };
    },
    /** Deletes at most `limit` of the company's quiet changes made before `before`, oldest first; how many went. */
    pruneBefore(companyId: number, before: number, limit: number): number {
      return pruneOld.run({ companyId, before, limit }).changes;
    },
    /** The company's deleted monitors that still have quiet changes. */
    deletedMonitorsWithChanges(companyId: number): number[] {
      return deletedWithChanges.all(companyId) as number[];
    },
    /** Deletes at most `limit` of the monitor's quiet changes; how many went. */
    pruneMonitor(monitorId: number, limit: number): number {
      return pruneMonitor.run({ monitorId, limit }).changes;
    },
  };
}

export type QuietChangeRepository = ReturnType<typeof quietChangeRepository>;
