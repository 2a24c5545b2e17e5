import { missedDeadlineReason } from '../domain/alerts/reasonPieces';
import { missedReason, missedRun, type MonitorReason } from '../domain/alerts/alert';
import { problemOf } from '../domain/alerts/vocabulary';
import { defaultGraceMinutes, dueAt, dueTimeOfRun, nextDeadline, nextStepAt, outageGraces, withCatchUpGrace, type MissedDeadline, type Outage } from '../domain/monitors/dueTime';
import { gracePopup, MAX_SEPARATE_POPUPS, stepPopups, unrecordedFailurePopups, type MonitorTransition } from '../domain/alerts/monitorPopups';
import type { MonitorRow } from '../db/monitors';
import type { EngineContext } from './engineContext';
import { excuseByMaintenance, maintenanceReplan } from './monitors/maintenance';
import { storeResume } from './monitors/monitorEdits';
import { timingOf } from './monitors/monitorState';
import { raiseQuietServers } from './servers/quietServers';
import { sendReminders } from './delivery/reminders';
import { runInSlices } from './slices';
import { bringMonitorsBackToClock } from './monitors/clockBack';
import { announceTransition, transitionAlert, type RecordedTransition, type TransitionFacts } from './monitors/transitions';
import { addFailure, failuresOf, missedRunAt, streakReason, timingAfterCountedMiss } from '../domain/monitors/failureStreak';
import { noteAlertingChange, raiseNotedChange, sendSteady } from './monitors/alertGate';

/**
 * Most monitors one transaction of a step fails: a burst is failed in slices (agent/engine/slices.ts),
 * so pulses are answered in between. While other work may come, ten (a millisecond or two: a commit
 * writes some 25 pages whether it fails one monitor or ten, so one a transaction cost nearly three
 * times the CPU, five an eighth more); when the caller says nothing else is going on, 200 (some
 * 20 ms: the pages failures share, the notifications' and the indexes', written once for all of
 * them; 10,000 monitors due at once failed in a median 1.0 s against 1.16 s by fifties).
 */
const SLICE_BATCH = 10;
const IDLE_SLICE_BATCH = 200;
/** Popups marked shown per transaction after a burst: about as long as failing a batch. */
const MARK_PAGE = 100;
/** Most overdue monitors told by popup at once while their failure cannot be written. */
const UNRECORDED_BATCH = 500;

/** `told`: its popup was shown already, while the failure could not be written (warnUnrecorded). */
type FailedMonitor = RecordedTransition & { afterGrace: boolean; told: boolean };

/** The run one monitor waits for (a grace does not change it, a pulse does): what warnUnrecorded tells about once. */
const missKey = (row: MonitorRow) => `${row.id}:${row.expected_run_at}:${row.running_since}`;

/**
 * What an alert says of a missed deadline: why, the run (a started one), and when the run was due: the
 * run that did not come, or for a stuck run the one it started for. A start later than its grace is still
 * that run's when it came within the schedule's own period of it (a job every ten minutes started 13:22 is the 13:20
 * run); a run further off (a daily job started by hand at 15:00) has none.
 */
function missedFacts(missed: MissedDeadline, row: MonitorRow): TransitionFacts & { reason: MonitorReason } {
  // A start that never finished while a later run started (runs that overlap) names no run that did not come.
  const nextRunCame = missed.kind === 'not_finished' && row.last_run_at > missed.startedAt;
  const expectedAt =
    missed.kind === 'stuck'
      ? dueTimeOfRun(row, Math.max(row.duration, defaultGraceMinutes(row.schedule, missed.startedAt)), missed.startedAt)
      : nextRunCame
        ? null
        : missed.runAt;
  return { reason: missedReason(missed, row.duration, row.last_pulse_at), run: missedRun(missed), expectedAt };
}

/** The streak of `row` after it missed `missed`: whether this failure alerts (its N-th in a row), and its failures. */
function countMiss(row: MonitorRow, missed: MissedDeadline) {
  const failures = row.is_alerted === 1 ? failuresOf(row.failures) : [];
  return addFailure({ alertAfter: row.alert_after, failures, alertSent: false }, missedRunAt(missed, row));
}

/**
 * Counts the miss of `row` at `now` (`facts` its failure): the monitor is failed from its first; a
 * failure still short of its alert keeps the monitor watched (its next run awaited), the one that
 * alerts leaves it as a failed monitor always was. Returns the row as written (null when another
 * step counted it), its flapping as noted when this failure alerts (null when it does not), and its failures.
 */
function storeMiss(ctx: EngineContext, row: MonitorRow, missed: MissedDeadline, facts: { reason: MonitorReason }, now: number) {
  const { streak, alert } = countMiss(row, missed);
  const timing = alert ? timingOf(row) : timingAfterCountedMiss(timingOf(row), missed);
  // A failure that alerts is an alerting change: its flap state is written by the same UPDATE.
  const noted = alert ? noteAlertingChange(row, now) : null;
  const changed = ctx.store.monitorAlerting.countFailure(row, {
    reasonData: facts.reason,
    failures: streak.failures,
    alertSent: alert,
    expectedRunAt: timing.expectedRunAt,
    runningSince: timing.runningSince,
    dueAt: alert ? null : dueAt(timing),
    now,
    flapping: noted ?? undefined,
  });
  return { changed, noted, failures: streak.failures };
}

/** How a step is run: by the monitor loop on its clock, or by a test at a moment of its choosing. */
export interface StepOptions {
  /** The time of each slice (the loop's clock; a test's fixed moment). */
  clock: () => number;
  /** Whether nothing else is going on, asked before each slice after the first: it then fails more at once. */
  idle?: () => boolean;
  /**
   * Runs each slice's work (at `now`, the slice's time): the loop notes that it ran and gives the
   * graces of an outage it noticed meanwhile before anything is failed.
   */
  aroundSlice?: (now: number, work: () => void) => void;
}

/**
 * The monitor loop's work: its step, and what it does after an outage and while it cannot write.
 * Each transaction's cost grows with the monitors due, not with all monitors.
 */
export function createOverdueFailer(ctx: EngineContext) {
  const { store, notifier } = ctx;

  // Misses already told by popup while they could not be recorded (the database refused writes).
  const told = new Set<string>();

  // One read transaction for the four lookups: each alone took its own read lock of the database,
  // which cost more than its lookup, and this runs after every turn in which pulses came.
  const earliestOfAll = store.db.transaction((): number | null =>
    nextStepAt([
      store.monitors.earliestDueAt(),
      store.serverReports.earliestQuietAt(),
      store.reminders.earliestDueAt(),
      store.monitorAlerting.earliestSteadyAt(),
    ]),
  );
  const failBatch = store.db.transaction((now: number, limit: number) => {
    const due = store.monitors.overdue(now, limit + 1);
    const failed: FailedMonitor[] = [];
    const snoozesEnded: typeof due = [];
    const replanned: typeof due = [];
    for (const row of due.slice(0, limit)) {
      // A paused monitor is due only when its snooze ends: it is planned again, never failed.
      if (row.paused_at !== null) {
        storeResume(ctx, row, now);
        snoozesEnded.push(row);
        continue;
      }
      const missed = nextDeadline(timingOf(row));
      if (!missed) continue;
      // A run due in maintenance is not expected: the monitor waits for its next run after it.
      if (excuseByMaintenance(ctx, row, missed, now)) {
        replanned.push(row);
        continue;
      }
      const facts = missedFacts(missed, row);
      // Conditional on its failure not being alerted yet, so each failure is counted, and raised, exactly once.
      const { changed, noted, failures } = storeMiss(ctx, row, missed, facts, now);
      if (!changed) continue;
      // The first failure of a streak short of its alert after N: noted for reports (no missed-run alert was raised, so no reason).
      if (!noted && row.is_alerted === 0) store.quietChanges.record(row.company_id, row.id, now, 'failed', null);
      // Failed, not alerting yet (or folded into a flapping alert): live views still hear of it.
      const transition = noted ? raiseNotedChange(ctx, changed, 'failed', now, { ...facts, reason: streakReason(facts.reason, failures) }, noted) : null;
      if (!transition) {
        replanned.push(changed);
        continue;
      }
      const afterGrace = missed.resumedAt !== undefined;
      failed.push({ ...transition, afterGrace, told: told.has(missKey(row)) });
    }
    // Planned again (a snooze ended, a run fell in maintenance) or failed without an alert (not yet, or folded): live views hear of them.
    return { failed, planned: [...snoozesEnded, ...replanned], more: due.length > limit };
  });


  // Failures of a burst larger than one batch, held until its last batch so the burst makes one set of popups.
  let burst: FailedMonitor[] = [];
  // Notifications whose popups were shown, still to be marked so, and when they were shown.
  let unmarked: string[] = [];
  let shownAt = 0;

  /**
   * Marks a page of shown popups so, in its own transaction; returns whether more remain. One
   * transaction over a burst's 10,000 held the event loop for a sixth of a second. A stop before
   * the last page shows the rest again at the next start: twice rather than never.
   */
  const markSomeShown = (): boolean => {
    store.popupOutbox.markShown(unmarked.splice(0, MARK_PAGE), shownAt);
    return unmarked.length > 0;
  };

  /**
   * Plans again every snoozed monitor whose snooze ended before `now` and fails every monitor
   * whose due time is before `now`, at most `limit` of them, in one transaction: alert reason,
   * notification, and popups (one each, or one summary for more than 3; failures after a resume
   * grace always as one summary). Returns whether more are overdue; popups wait for the call
   * that leaves none, so a burst of any size makes one set of them.
   */
  const failSome = (now: number, limit: number): boolean => {
    if (unmarked.length > 0) return markSomeShown();
    const { failed, planned, more } = failBatch(now, limit);
    for (const row of planned) {
      ctx.events.emit({ type: 'monitor.changed', companyId: row.company_id, monitorId: row.id });
    }
    for (const transition of failed) announceTransition(ctx, transition);
    // Held without their alerts (a burst of 10,000 held them for seconds): a summary names monitors only.
    for (const transition of failed) burst.push({ ...transition, alert: undefined });
    if (more) return true;
    const untold = burst.filter((t) => !t.told);
    const separate = untold.filter((t) => !t.afterGrace);
    const popups = stepPopups(separate.length > MAX_SEPARATE_POPUPS ? separate : separate.map(withAlert));
    const grace = gracePopup(untold.filter((t) => t.afterGrace));
    if (grace) popups.push(grace);
    for (const popup of popups) notifier.show(popup);
    unmarked = burst.map((t) => t.notificationId);
    shownAt = now;
    burst = [];
    told.clear();
    return markSomeShown();
  };

  /** A held failure with its alert again, read back from its notification, for a popup of its own. */
  const withAlert = (transition: FailedMonitor): FailedMonitor => ({
    ...transition,
    alert: store.notifications.find(transition.companyId, transition.notificationId)?.alert ?? undefined,
  });

  /** What a step does once, however many transactions it fails its monitors in: quiet servers, reminders, steady again. */
  const beginStep = (now: number): void => {
    raiseQuietServers(ctx, now);
    sendReminders(ctx, now);
    sendSteady(ctx, now);
  };

  return {
    /**
     * One step of the monitor loop: raises what quiet servers and reminders are due, then fails
     * every monitor overdue at the slice's time, a few per transaction (SLICE_BATCH, or
     * IDLE_SLICE_BATCH when idle), in slices that yield to I/O in between, so pulses are answered
     * while a burst of 10,000 is failed; the burst makes one set of popups, shown when none is
     * left. Calls `done` at the end (with the error that stopped it, if any): at once when it fit
     * in the first slice. Returns a function that cancels what has not run yet.
     */
    step({ clock, idle, aroundSlice = (now, work) => work() }: StepOptions, done: (error?: unknown) => void): () => void {
      let begun = false;
      return runInSlices(
        (quiet) => {
          const now = clock();
          let more = false;
          aroundSlice(now, () => {
            if (!begun) beginStep(now);
            begun = true;
            more = failSome(now, quiet ? IDLE_SLICE_BATCH : SLICE_BATCH);
          });
          return more;
        },
        done,
        idle,
      );
    },

    /** When the next step has work (nextStepAt): after a monitor's due time, a quiet watcher's, a reminder's or a steady-again time; null when none. */
    nextStepAt(): number | null {
      return earliestOfAll();
    },

    /**
     * For when the database cannot be written (disk full): the monitors a step would fail at
     * `now`, found by reading only (counting the grace a pending `outage` would give), told by
     * popup, each missed run once; a step records them once writes work again, without a second
     * popup. Returns how many were told now.
     */
    warnUnrecorded(now: number, outage?: Outage): number {
      const news: MonitorTransition[] = [];
      for (const row of store.monitors.overdue(now, UNRECORDED_BATCH)) {
        if (row.paused_at !== null) continue; // a snooze that ended is planned again, never a failure
        const timing = timingOf(row);
        const graced = outage && outageGraces(row.due_at!, row.grace_from, outage) ? withCatchUpGrace(timing, outage.to) : timing;
        const missed = nextDeadline(graced);
        if (!missed || missed.deadline >= now || told.has(missKey(row))) continue;
        if (maintenanceReplan(ctx, row, missed) !== null) continue;
        if (!countMiss(row, missed).alert) continue; // a failure short of its alert tells nothing
        told.add(missKey(row));
        const facts = missedFacts(missed, row);
        const alert = transitionAlert(row, 'failed', now, facts);
        news.push({ monitorId: row.id, name: row.name, kind: 'failed', problem: problemOf(facts.reason), detail: missedDeadlineReason(missed, row.duration, row.timezone, row.last_pulse_at), alert });
      }
      for (const popup of unrecordedFailurePopups(news)) notifier.show(popup);
      return news.length;
    },

    /** The clock was set back to `now` while the agent ran: what it recorded ahead of it comes back to it (bringMonitorsBackToClock). */
    clockSetBack(now: number): number {
      return bringMonitorsBackToClock(ctx, now);
    },

    /**
     * Cronbeat resumed after `outage` (it started, the machine woke up, the process was frozen):
     * monitors whose deadline passed meanwhile get a fresh grace of their duration from its end
     * instead of failing at once (outageGraces). Returns how many got one.
     */
    graceOverdue(outage: Outage): number {
      // No watcher could report meanwhile either: its silence counts from the outage's end.
      store.serverReports.graceAfterOutage(outage);
      // One statement (the domain's rules run inside it): 100,000 monitors took seconds one by one.
      const graced = store.monitors.graceOverdue(outage);
      for (const row of graced) ctx.events.emit({ type: 'monitor.changed', companyId: row.company_id, monitorId: row.id });
      return graced.length;
    },
  };
}

export type OverdueFailer = ReturnType<typeof createOverdueFailer>;
