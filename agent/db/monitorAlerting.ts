import type { Db } from './open';
import { manyRows, oneRow } from './rows';
import type { MonitorReason } from '../domain/alerts/alert';
import type { FlapState } from '../domain/alerts/flapping';
import type { MonitorRow } from './monitors';

/*
 * The monitors table's columns of when a monitor alerts (migration 29): failures counted by the
 * loop, alert after N, and flapping. The rules are agent/domain/monitors/failureStreak.ts and flapping.ts.
 */

/** A missed run counted by the loop: the failure's reason, the streak after it, and the timing it leaves. */
export interface CountedFailure {
  id: number;
  reasonData: MonitorReason;
  failures: number[];
  alertSent: boolean;
  expectedRunAt: number | null;
  runningSince: number | null;
  dueAt: number | null;
  now: number;
  /** The flap state this failure leaves, when it alerts (alertGate.ts noteAlertingChange); absent: unchanged. */
  flapping?: { state: FlapState; steadyAt: number | null };
}

export function monitorAlertingRepository(db: Db) {
  // A missed deadline rests on the silence since the last pulse: a success sent after it is news, one before is stale.
  // RETURNING: the failed monitor as written, without reading it again (a burst fails 10,000). failed_at is
  // when the monitor turned failed: the first failure of a streak.
  const countFailure = oneRow<MonitorRow>(
    db,
    `UPDATE monitors SET is_alerted = 1, alert_reason = '', alert_reason_data = @reasonData, failures = @failures,
       alert_sent = @alertSent, expected_run_at = @expectedRunAt, running_since = @runningSince,
       running_rid = CASE WHEN @runningSince IS NULL THEN NULL ELSE running_rid END,
       due_at = @dueAt, grace_from = NULL, updated_at = @now,
       flapping = CASE WHEN @noteFlapping THEN @flapping ELSE flapping END,
       steady_at = CASE WHEN @noteFlapping THEN @steadyAt ELSE steady_at END,
       state_since = max(coalesce(state_since, last_run_at), last_run_at),
       failed_at = CASE WHEN is_alerted = 0 THEN @now ELSE failed_at END
     WHERE id = @id AND (is_alerted = 0 OR alert_sent = 0) AND deleted_at IS NULL
     RETURNING *`,
  );
  const setAlertAfter = db.prepare(
    'UPDATE monitors SET alert_after = @alertAfter, updated_at = @now WHERE id = @id AND company_id = @companyId AND deleted_at IS NULL',
  );
  const saveFlapping = db.prepare('UPDATE monitors SET flapping = @flapping, steady_at = @steadyAt WHERE id = @id');
  const steadyDue = manyRows<MonitorRow>(
    db,
    'SELECT * FROM monitors WHERE steady_at <= @now AND deleted_at IS NULL ORDER BY steady_at LIMIT @limit',
  );
  const earliestSteady = db.prepare('SELECT min(steady_at) FROM monitors WHERE steady_at IS NOT NULL AND deleted_at IS NULL').pluck();

  return {
    /**
     * Counts a missed run of the monitor, failing it unless its failure was alerted already: the
     * failed monitor only for the call that counted it, else null.
     */
    countFailure(failure: CountedFailure): MonitorRow | null {
      const { flapping, ...rest } = failure;
      return countFailure({
        ...rest,
        noteFlapping: flapping ? 1 : 0,
        flapping: flapping ? JSON.stringify(flapping.state) : null,
        steadyAt: flapping?.steadyAt ?? null,
        reasonData: JSON.stringify(failure.reasonData),
        failures: JSON.stringify(failure.failures),
        alertSent: failure.alertSent ? 1 : 0,
      });
    },
    /** Sets how many failures in a row the monitor alerts after; false when there was no such live monitor. */
    setAlertAfter(companyId: number, id: number, alertAfter: number, now: number): boolean {
      return setAlertAfter.run({ companyId, id, alertAfter, now }).changes === 1;
    },
    /** Stores the monitor's recent alerting changes (null: none worth keeping) and when it is steady again (null: not flapping). */
    saveFlapping(id: number, state: FlapState | null, steadyAt: number | null): void {
      saveFlapping.run({ id, flapping: state === null ? null : JSON.stringify(state), steadyAt });
    },
    /** Flapping monitors steady at `now` (no change for STEADY_AFTER_MS), earliest first, at most `limit`. */
    steadyDue(now: number, limit: number): MonitorRow[] {
      return steadyDue({ now, limit });
    },
    /** When the next flapping monitor is steady again; null when none flaps. */
    earliestSteadyAt(): number | null {
      return (earliestSteady.get() as number | null) ?? null;
    },
  };
}
