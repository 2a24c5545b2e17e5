import type { Db } from './open';
import { boundByPosition, manyRows, oneRow } from './rows';
import { COUNT_KEPT_SQL } from './pulses';
import { dueTimeAt, outageGraces, type Outage } from '../domain/monitors/dueTime';
import type { MonitorReason } from '../domain/alerts/alert';
import type { NotifiedMonitor } from '../domain/alerts/monitorNotifications';

/** A monitors row: the facts notifications carry, plus ownership, timing and bookkeeping. */
export interface MonitorRow extends NotifiedMonitor {
  company_id: number;
  due_at: number | null;
  deleted_at: number | null;
  created_at: number;
  updated_at: number;
  // Engine state (migration 3): see MonitorTiming in agent/domain/monitors/dueTime.ts.
  expected_run_at: number | null;
  running_since: number | null;
  running_rid: string | null;
  grace_from: number | null;
  /** Lines of its run history kept, at most PULSES_KEPT_PER_MONITOR (agent/db/pulses.ts). */
  pulses_kept: number;
  /** Minutes a started run may take before it is stuck (migration 26); null: no limit of its own. */
  max_runtime: number | null;
  // Pause and first pulse (migration 8): see PauseState in agent/domain/monitors/dueTime.ts.
  paused_at: number | null;
  paused_until: number | null;
  last_pulse_at: number | null;
  // Migration 14: see PulseState.stateSince in agent/domain/monitors/pulseEffect.ts; when it was last
  // resumed (until a pulse after that, it is "new" again).
  state_since: number | null;
  resumed_at: number | null;
  // Made by a job's line, and tags (migration 16): see agent/domain/monitors/ownLine.ts.
  slug: string | null;
  /** Space-separated, sorted (tagsOf in monitorLines.ts reads it). */
  tags: string;
  /** The key whose line made it, or an admin handed it to (migration 23): only that key's line may pulse or change it. */
  line_key_id: number | null;
  /** When the latest failure was raised (migration 17); kept after a recovery, which says how long it lasted. */
  failed_at: number | null;
  /**
   * Why it is failed, as data (migration 20): JSON of a MonitorReason, whose words the API's
   * alert_reason is made of when shown; null when not failed or failed before reasons were data.
   * `alert_reason` holds words only for such a failure from before ('' otherwise).
   */
  alert_reason_data: string | null;
  // Alert after N failures and flapping (migration 29): see agent/domain/monitors/failureStreak.ts and flapping.ts.
  alert_after: number;
  /** JSON list of when the current streak's failed runs were due (ms); '[]' when fine. */
  failures: string;
  /** 1 when its current failure was alerted (or folded into a flapping alert); 0 while it still counts. */
  alert_sent: number;
  /** JSON of a FlapState; null when it has no recent alerting change. */
  flapping: string | null;
  /** When a flapping monitor is steady again unless it changes before; null when not flapping. */
  steady_at: number | null;
}

/** A failure's words are made from its data where shown: the column keeps only the words of a failure from before data. */
const KEPT_WORDS_SQL = "CASE WHEN @isAlerted = 1 AND @alertReasonData IS NULL THEN alert_reason ELSE '' END";

/** A row's current reason as data (reasonDataOf), or null: not failed, or failed before reasons were kept as data. */
export function reasonDataOf(row: Pick<MonitorRow, 'alert_reason_data'>): MonitorReason | null {
  return row.alert_reason_data === null ? null : (JSON.parse(row.alert_reason_data) as MonitorReason);
}

/** What an edit changes: the monitor's own fields, and its timing when it was re-planned. */
export interface MonitorEdit {
  name: string;
  projectId: number | null;
  timezone: string;
  schedule: string;
  duration: number;
  maxRuntime: number | null;
  expectedRunAt: number | null;
  graceFrom: number | null;
  dueAt: number | null;
  now: number;
}

/** A pause (pausedUntil null: until resumed) or a resume (all pause fields null), with the timing it leaves. */
export interface MonitorPauseUpdate {
  /** Set for a resume: when it was resumed. */
  resumedAt: number | null;
  pausedAt: number | null;
  pausedUntil: number | null;
  expectedRunAt: number | null;
  graceFrom: number | null;
  dueAt: number | null;
  now: number;
}

/** What a pulse or the monitor loop changes on a monitor. */
export interface MonitorTimingUpdate {
  id: number;
  lastRunAt: number;
  isAlerted: number;
  /** JSON of the reason as data, or null. */
  alertReasonData: string | null;
  stateSince: number | null;
  expectedRunAt: number | null;
  runningSince: number | null;
  runningRid: string | null;
  graceFrom: number | null;
  dueAt: number | null;
  now: number;
  /** When the pulse that brought this counts: the monitor's last pulse time, as notePulse. */
  pulseAt: number;
  /** JSON of the current streak's failures ('[]' when fine), and whether its failure was alerted (1) or still counts (0). */
  failures: string;
  alertSent: number;
}

export interface NewMonitor {
  companyId: number;
  name: string;
  projectId: number | null;
  token: string;
  timezone: string;
  schedule: string;
  duration: number;
  /** Minutes a started run may take before it is stuck; absent or null: no limit. */
  maxRuntime?: number | null;
  expectedRunAt: number | null;
  dueAt: number | null;
  now: number;
}

/** Job monitors of a company; deleted ones are kept (soft delete) but never listed or found. */
export function monitorRepository(db: Db) {
  const list = manyRows<MonitorRow>(db, 'SELECT * FROM monitors WHERE company_id = ? AND deleted_at IS NULL ORDER BY id');
  const find = oneRow<MonitorRow>(db, 'SELECT * FROM monitors WHERE id = ? AND company_id = ? AND deleted_at IS NULL');
  const findByToken = oneRow<MonitorRow>(db, 'SELECT * FROM monitors WHERE token = ? AND deleted_at IS NULL');
  const insert = db.prepare(
    `INSERT INTO monitors (company_id, name, project_id, token, timezone, schedule, duration, max_runtime,
                           last_run_at, expected_run_at, due_at, created_at, updated_at)
     VALUES (@companyId, @name, @projectId, @token, @timezone, @schedule, @duration, @maxRuntime, @now, @expectedRunAt, @dueAt,
             @now, @now)`,
  );
  const setToken = db.prepare('UPDATE monitors SET token = @token, updated_at = @now WHERE id = @id AND company_id = @companyId AND deleted_at IS NULL');
  const softDelete = db.prepare(
    `UPDATE monitors SET deleted_at = @now, updated_at = @now, due_at = NULL
     WHERE id = @id AND company_id = @companyId AND deleted_at IS NULL`,
  );

  const saveTimingSql = `UPDATE monitors SET last_run_at = @lastRunAt, is_alerted = @isAlerted, alert_reason = ${KEPT_WORDS_SQL}, alert_reason_data = @alertReasonData,
       state_since = @stateSince, expected_run_at = @expectedRunAt, running_since = @runningSince, running_rid = @runningRid,
       grace_from = @graceFrom, due_at = @dueAt, updated_at = @now, failures = @failures, alert_sent = @alertSent,
       last_pulse_at = max(min(coalesce(last_pulse_at, @pulseAt), @now), @pulseAt),
       failed_at = CASE WHEN @isAlerted = 1 AND is_alerted = 0 THEN @pulseAt ELSE failed_at END, ${COUNT_KEPT_SQL}
     WHERE id = @id AND deleted_at IS NULL`;
  const timing = boundByPosition<MonitorTimingUpdate>(saveTimingSql);
  const saveTiming = db.prepare(timing.sql);
  // RETURNING: the monitor as a pulse left it, for the alert of the failure or recovery it made, without reading it again.
  const saveTransition = oneRow<MonitorRow>(db, `${timing.sql} RETURNING *`);
  // due_at is NULL for alerted and deleted monitors, so the index holds only monitors still watched (a failure
  // still counting towards its alert is watched).
  const overdue = manyRows<MonitorRow>(
    db,
    'SELECT * FROM monitors WHERE due_at < @now AND (is_alerted = 0 OR alert_sent = 0) AND deleted_at IS NULL ORDER BY due_at LIMIT @limit',
  );
  // The WHERE lets min() read the first entry of the partial index monitors_due instead of scanning the table.
  const earliestDue = db.prepare('SELECT min(due_at) FROM monitors WHERE due_at IS NOT NULL').pluck();
  // The due time after a catch-up grace from `now`, by the domain's own rule, so the UPDATE below
  // can give 100,000 overdue monitors their grace in one statement instead of one each.
  db.function(
    'catch_up_due_at',
    { deterministic: true },
    (duration, maxRuntime, expectedRunAt, runningSince, graceFrom, now) =>
      dueTimeAt(
        {
          schedule: '',
          timezone: '',
          durationMinutes: duration as number,
          expectedRunAt: expectedRunAt as number | null,
          runningSince: runningSince as number | null,
          maxRuntimeMinutes: maxRuntime as number | null,
          isAlerted: false,
          graceFrom: graceFrom as number | null,
        },
        now as number,
      ).dueAt,
  );
  db.function('outage_graces', { deterministic: true }, (due, graceFrom, from, to) =>
    outageGraces(due as number, graceFrom as number | null, { from: from as number | null, to: to as number }) ? 1 : 0,
  );
  // due_at < now narrows to the index's overdue monitors; outage_graces (the domain's rule) picks those the outage graces.
  // A snoozed monitor's due_at is its snooze's end, which the monitor loop handles (no grace).
  const graceOverdue = db.prepare(
    `UPDATE monitors SET grace_from = @to,
       due_at = catch_up_due_at(duration, max_runtime, expected_run_at, running_since, grace_from, @to)
     WHERE due_at < @to AND (is_alerted = 0 OR alert_sent = 0) AND deleted_at IS NULL AND paused_at IS NULL
       AND outage_graces(due_at, grace_from, @from, @to)
     RETURNING id, company_id`,
  );

  const edit = db.prepare(
    `UPDATE monitors SET name = @name, project_id = @projectId, timezone = @timezone, schedule = @schedule,
       duration = @duration, max_runtime = @maxRuntime, expected_run_at = @expectedRunAt, grace_from = @graceFrom, due_at = @dueAt, updated_at = @now
     WHERE id = @id AND company_id = @companyId AND deleted_at IS NULL`,
  );
  // A pause acknowledges a failure and forgets a run in progress; the pause's end plans afresh.
  // A resume (@resumedAt set) starts a fresh state: "new" until a pulse, older pulses change nothing.
  const setPause = oneRow<MonitorRow>(
    db,
    `UPDATE monitors SET paused_at = @pausedAt, paused_until = @pausedUntil, is_alerted = 0, alert_reason = '', alert_reason_data = NULL,
       failures = '[]', alert_sent = 1,
       running_since = NULL, running_rid = NULL, expected_run_at = @expectedRunAt, grace_from = @graceFrom,
       due_at = @dueAt, updated_at = @now, resumed_at = coalesce(@resumedAt, resumed_at),
       state_since = coalesce(@resumedAt, state_since), ${COUNT_KEPT_SQL}
     WHERE id = @id AND company_id = @companyId AND deleted_at IS NULL
     RETURNING *`,
  );
  // After maintenance: the run in progress (if any) is forgotten and the next run awaited, without touching last_pulse_at.
  const replanAfterMaintenance = db.prepare(
    `UPDATE monitors SET expected_run_at = @expectedRunAt, running_since = NULL, running_rid = NULL, grace_from = @graceFrom,
       due_at = @dueAt, updated_at = @now
     WHERE id = @id AND deleted_at IS NULL AND (is_alerted = 0 OR alert_sent = 0)`,
  );
  const notePulse = db.prepare(
    `UPDATE monitors SET last_pulse_at = max(coalesce(last_pulse_at, @at), @at), last_run_at = max(last_run_at, @at), ${COUNT_KEPT_SQL}
     WHERE id = @id AND deleted_at IS NULL`,
  );

  return {
    list(companyId: number): MonitorRow[] {
      return list(companyId);
    },
    find(companyId: number, id: number): MonitorRow | null {
      return find(id, companyId);
    },
    /** The live monitor with that pulse token, whatever its company (the token is the secret). */
    findByToken(token: string): MonitorRow | null {
      return findByToken(token);
    },
    create(input: NewMonitor): MonitorRow {
      const { lastInsertRowid } = insert.run({ maxRuntime: null, ...input });
      return find(lastInsertRowid, input.companyId)!;
    },
    /** Writes a monitor's timing state after a pulse, and counts the pulse's line of history (pulses.add stores it). */
    saveTiming(update: MonitorTimingUpdate): void {
      // The pulse's time rides along (last_pulse_at, as notePulse): one UPDATE of the row per pulse, not two.
      saveTiming.run(...timing.argsOf(update));
    },
    /** saveTiming for a pulse that failed or recovered the monitor: the monitor as written, null when there was no such live monitor. */
    saveTransition(update: MonitorTimingUpdate): MonitorRow | null {
      return saveTransition(...timing.argsOf(update));
    },
    /** Plans a monitor whose missed run fell in maintenance again (agent/engine/monitors/maintenance.ts). */
    replanAfterMaintenance(update: { id: number; expectedRunAt: number | null; graceFrom: number | null; dueAt: number | null; now: number }): void {
      replanAfterMaintenance.run(update);
    },
    /** Live monitors not failed whose due_at is before `now`, earliest first, at most `limit`. */
    overdue(now: number, limit: number): MonitorRow[] {
      return overdue({ now, limit });
    },
    /** The earliest due_at of all live monitors not failed; null when none waits for anything. */
    earliestDueAt(): number | null {
      return (earliestDue.get() as number | null) ?? null;
    },
    /**
     * Cronbeat resumed after `outage`: every live monitor not failed that the outage graces
     * (outageGraces in agent/domain/monitors/dueTime.ts) gets a fresh grace from its end, all in one
     * statement. Returns those monitors.
     */
    graceOverdue(outage: Outage): Array<{ id: number; company_id: number }> {
      return graceOverdue.all(outage) as Array<{ id: number; company_id: number }>;
    },
    /** Stores an edit (validated and re-planned by the caller); false when there was no such live monitor. */
    edit(companyId: number, id: number, change: MonitorEdit): boolean {
      return edit.run({ ...change, id, companyId }).changes === 1;
    },
    /** Pauses, snoozes or resumes a monitor, counting the line of history that says so: the monitor as written, null when there was no such live monitor. */
    setPause(companyId: number, id: number, change: MonitorPauseUpdate): MonitorRow | null {
      return setPause({ ...change, id, companyId });
    },
    /** A pulse counting for `at` arrived: last_pulse_at and last_run_at move forward to it (never back), and its line is counted. */
    notePulse(id: number, at: number): void {
      notePulse.run({ id, at });
    },
    /** Gives the monitor a new pulse token (the old one matches nothing from now on); false when there was no such live monitor. */
    rotateToken(companyId: number, id: number, token: string, now: number): boolean {
      return setToken.run({ id, companyId, token, now }).changes === 1;
    },
    /** Returns false when there was no such live monitor. */
    delete(companyId: number, id: number, now: number): boolean {
      return softDelete.run({ id, companyId, now }).changes === 1;
    },
  };
}
