import type { Db } from './open';
import { boundByPosition, manyRows } from './rows';
import type { MonitorReason } from '../domain/alerts/alert';
import type { FlapState } from '../domain/alerts/flapping';
import type { MonitorRow } from './monitors';

/*
 * The monitors table's columns of when a monitor alerts (migration 29): failures counted by the
 * loop, alert after N, and flapping. The rules are agent/domain/monitors/failureStreak.ts and flapping.ts.
 */

/** A missed run counted by the loop: the failure's reason, the streak after it, and the timing it leaves. */
export interface CountedFailure {
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

/**
 * The monitor as countFailure writes it, from its row as read in the same transaction: the one
 * place these rules live, for the UPDATE and for the row handed back alike. A missed deadline rests
 * on the silence since the last pulse: a success sent after it is news, one before is stale.
 * failed_at is when the monitor turned failed: the first failure of a streak.
 */
function failedRow(monitor: MonitorRow, failure: CountedFailure): MonitorRow {
  const { now, flapping } = failure;
  return {
    ...monitor,
    is_alerted: 1,
    alert_reason: '',
    alert_reason_data: JSON.stringify(failure.reasonData),
    failures: JSON.stringify(failure.failures),
    alert_sent: failure.alertSent ? 1 : 0,
    expected_run_at: failure.expectedRunAt,
    running_since: failure.runningSince,
    running_rid: failure.runningSince === null ? null : monitor.running_rid,
    due_at: failure.dueAt,
    grace_from: null,
    updated_at: now,
    flapping: flapping ? JSON.stringify(flapping.state) : monitor.flapping,
    steady_at: flapping ? flapping.steadyAt : monitor.steady_at,
    state_since: Math.max(monitor.state_since ?? monitor.last_run_at, monitor.last_run_at),
    failed_at: monitor.is_alerted === 0 ? now : monitor.failed_at,
  };
}

export function monitorAlertingRepository(db: Db) {
  // Not RETURNING *: handing the row's 36 columns back cost more than the UPDATE itself, and the
  // caller holds the row it read (a burst fails 10,000). Bound by position (boundByPosition).
  const { sql: countFailureSql, argsOf: countFailureArgs } = boundByPosition<MonitorRow>(
    `UPDATE monitors SET is_alerted = @is_alerted, alert_reason = @alert_reason, alert_reason_data = @alert_reason_data,
       failures = @failures, alert_sent = @alert_sent, expected_run_at = @expected_run_at, running_since = @running_since,
       running_rid = @running_rid, due_at = @due_at, grace_from = @grace_from, updated_at = @updated_at,
       flapping = @flapping, steady_at = @steady_at, state_since = @state_since, failed_at = @failed_at
     WHERE id = @id AND (is_alerted = 0 OR alert_sent = 0) AND deleted_at IS NULL`,
  );
  const countFailure = db.prepare(countFailureSql);
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
     * Counts a missed run of `monitor` (its row as read in the caller's transaction), failing it
     * unless its failure was alerted already (or it was deleted): the failed monitor as written only
     * for the call that counted it, else null.
     */
    countFailure(monitor: MonitorRow, failure: CountedFailure): MonitorRow | null {
      const written = failedRow(monitor, failure);
      return countFailure.run(...countFailureArgs(written)).changes === 1 ? written : null;
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
