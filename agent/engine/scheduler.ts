import { missedDeadlineReason } from '../domain/alertReason';
import { nextDeadline } from '../domain/dueTime';
import { gracePopup, stepPopups } from '../domain/monitorPopups';
import type { EngineContext } from './engineContext';
import { storeResume } from './monitorEdits';
import { timingOf } from './monitorState';
import { announceTransition, recordTransition, type RecordedTransition } from './transitions';

/** Most monitors one step fails; the rest wait for the next step, right after. */
export const FAIL_BATCH = 500;

type FailedMonitor = RecordedTransition & { afterGrace: boolean };

/**
 * The alert side of the engine, as steps the loop calls with the current time.
 * Each step is one transaction whose cost grows with the monitors due, not with all monitors.
 */
export function createScheduler(ctx: EngineContext) {
  const { store, notifier } = ctx;

  const failBatch = store.db.transaction((now: number) => {
    const due = store.monitors.overdue(now, FAIL_BATCH + 1);
    const failed: FailedMonitor[] = [];
    const snoozesEnded: typeof due = [];
    for (const row of due.slice(0, FAIL_BATCH)) {
      // A paused monitor is due only when its snooze ends: it is planned again, never failed.
      if (row.paused_at !== null) {
        storeResume(ctx, row, now);
        snoozesEnded.push(row);
        continue;
      }
      const missed = nextDeadline(timingOf(row));
      if (!missed) continue;
      const reason = missedDeadlineReason(missed, row.duration, row.timezone);
      // Conditional on not being failed yet, so each failure is raised exactly once.
      if (!store.monitors.markFailed(row.id, reason, now)) continue;
      const changed = store.monitors.find(row.company_id, row.id)!;
      failed.push({ ...recordTransition(ctx, changed, 'failed', now), afterGrace: missed.resumedAt !== undefined });
    }
    return { failed, snoozesEnded, more: due.length > FAIL_BATCH };
  });


  // Failures of a burst larger than one batch, held until its last batch so the burst makes one set of popups.
  let burst: FailedMonitor[] = [];

  return {
    /**
     * Plans again every snoozed monitor whose snooze ended before `now`, and
     * fails every monitor whose due time is before `now` (at most FAIL_BATCH of them): alert
     * reason, notification, and popups (one each, or one summary for more than 3; failures
     * after a resume grace always as one summary). Returns whether more are overdue; popups
     * wait for the call that leaves none, so a burst of any size makes one summary.
     */
    failOverdue(now: number): boolean {
      const { failed, snoozesEnded, more } = failBatch(now);
      for (const row of snoozesEnded) {
        ctx.events.emit({ type: 'monitor.changed', companyId: row.company_id, monitorId: row.id });
      }
      for (const transition of failed) announceTransition(ctx, transition);
      burst.push(...failed);
      if (more) return true;
      const popups = stepPopups(burst.filter((t) => !t.afterGrace));
      const grace = gracePopup(burst.filter((t) => t.afterGrace));
      if (grace) popups.push(grace);
      for (const popup of popups) notifier.show(popup);
      store.popupOutbox.markShown(burst.map((t) => t.notificationId), now);
      burst = [];
      return false;
    },

    /**
     * Cronbeat resumed at `now` (it started, or the machine woke up): monitors whose deadline
     * passed meanwhile get a fresh grace of their duration from now instead of failing at once.
     * Returns how many got one.
     */
    graceOverdue(now: number): number {
      // One statement (the domain's withResumeGrace runs inside it): 100,000 monitors took seconds one by one.
      const graced = store.monitors.graceOverdue(now);
      for (const row of graced) ctx.events.emit({ type: 'monitor.changed', companyId: row.company_id, monitorId: row.id });
      return graced.length;
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
