import type { Db } from './open';
import type { ReportEvent } from '../domain/reports/numbers';

/*
 * A monitor's changes between failed and fine that raised no failed or recovered notification: the
 * one flapping sent its flapping alert in place of, those it kept quiet after, and a failure short of
 * its alert after N with its quiet recovery (migration 34). The notifications alone would leave a
 * report blind to them: a monitor that flapped for an hour would read as failed for one stretch, or
 * none. Never listed, never sent: a report reads them.
 */

export function quietChangeRepository(db: Db) {
  const insert = db.prepare(
    'INSERT INTO quiet_changes (company_id, monitor_id, at, kind, reason) VALUES (@companyId, @monitorId, @at, @kind, @reason)',
  );
  const since = db.prepare(
    `SELECT monitor_id, at, kind, reason FROM quiet_changes WHERE company_id = @companyId AND at >= @from ORDER BY at, id`,
  );
  return {
    /** Notes that the monitor turned failed (with why: the reason's kind) or recovered at `at`, without an alert. */
    record(companyId: number, monitorId: number, at: number, kind: 'failed' | 'recovered', reason: string | null): void {
      insert.run({ companyId, monitorId, at, kind, reason });
    },
    /** The company's quiet changes from `from` on, oldest first, added to `byMonitor`. */
    since(companyId: number, from: number, byMonitor: Map<number, ReportEvent[]>): void {
      for (const row of since.iterate({ companyId, from }) as Iterable<ReportEvent & { monitor_id: number }>) {
        const event: ReportEvent = { at: row.at, kind: row.kind, reason: row.reason };
        const list = byMonitor.get(row.monitor_id);
        if (list) list.push(event);
        else byMonitor.set(row.monitor_id, [event]);
      }
    },
  };
}

export type QuietChangeRepository = ReturnType<typeof quietChangeRepository>;
