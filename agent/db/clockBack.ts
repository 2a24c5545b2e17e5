import type { Db } from './open';
import { manyRows } from './rows';
import type { MonitorRow } from './monitors';
import { STEADY_AFTER_MS } from '../domain/alerts/flapping';
import { nextReminderAt } from '../domain/alerts/reminders';
import { quietAfter } from '../domain/servers/quietAfter';

/** A monitor's moments brought back to a clock set back (agent/domain/monitors/clockBack.ts), with its due time then. */
export interface MonitorAtClock {
  id: number;
  lastRunAt: number;
  stateSince: number | null;
  expectedRunAt: number | null;
  runningSince: number | null;
  graceFrom: number | null;
  dueAt: number | null;
  now: number;
}

/**
 * What was written while the agent's clock read later than it does now (agent/domain/monitors/clockBack.ts):
 * monitors' moments, and what is planned from a moment of the past (a reminder N hours after the last, a
 * watcher quiet two reports after its last), at most as far from now as from that moment.
 */
export function clockBackRepository(db: Db) {
  // Every write stamps updated_at, so a monitor touched while the clock was ahead is found by it too (an edit, a grace).
  const aheadOf = manyRows<MonitorRow>(
    db,
    `SELECT * FROM monitors WHERE deleted_at IS NULL AND (updated_at > @now OR created_at > @now OR last_run_at > @now
       OR last_pulse_at > @now OR state_since > @now OR running_since > @now OR grace_from > @now OR failed_at > @now
       OR resumed_at > @now OR paused_at > @now)`,
  );
  // Moments of the past are never later than now; a paused monitor's due_at (its snooze's end, the admin's own) is kept.
  const bringBack = db.prepare(
    `UPDATE monitors SET last_run_at = @lastRunAt, state_since = @stateSince, expected_run_at = @expectedRunAt,
       running_since = @runningSince, grace_from = @graceFrom,
       due_at = CASE WHEN paused_at IS NULL THEN @dueAt ELSE due_at END,
       last_pulse_at = min(last_pulse_at, @now), failed_at = min(failed_at, @now), resumed_at = min(resumed_at, @now),
       paused_at = min(paused_at, @now), created_at = min(created_at, @now), updated_at = min(updated_at, @now),
       steady_at = min(steady_at, @now + ${STEADY_AFTER_MS})
     WHERE id = @id`,
  );
  db.function('next_reminder_at', { deterministic: true }, (sentAt, hours) => nextReminderAt(sentAt as number, hours as number | null));
  db.function('quiet_after', { deterministic: true }, (lastReportAt, interval) => quietAfter(lastReportAt as number, interval as number | null));
  const remindersBack = db.prepare(
    `UPDATE reminders SET next_at = next_reminder_at(@now, (SELECT remind_every_hours FROM channels WHERE id = channel_id))
     WHERE next_at > next_reminder_at(@now, (SELECT remind_every_hours FROM channels WHERE id = channel_id))`,
  );
  const reportsBack = db.prepare('UPDATE server_reports SET last_report_at = @now WHERE last_report_at > @now');
  const watchersBack = db.prepare(
    `UPDATE server_watchers SET last_report_at = min(last_report_at, @now), quiet_since = min(quiet_since, @now),
       quiet_alert_at = min(quiet_alert_at, quiet_after(min(last_report_at, @now), interval_seconds))
     WHERE last_report_at > @now OR quiet_since > @now`,
  );
  // The outbox: a send planned from a moment after now (a retry's backoff, a claim's end, quiet hours, a
  // hold for a digest) comes as long after now as it was planned after that moment; the give-up moves
  // with it. Attempts and fresh alerts stamped later than now are stamped now, or a channel's next
  // digest would wait for "tomorrow"'s last one, and its bursts be counted from there.
  const deliveriesBack = db.prepare(
    `UPDATE deliveries SET next_attempt_at = next_attempt_at - (coalesce(last_attempt_at, created_at) - @now),
       give_up_at = give_up_at - (coalesce(last_attempt_at, created_at) - @now)
     WHERE status IN ('pending', 'sending') AND coalesce(last_attempt_at, created_at) > @now`,
  );
  const attemptsBack = db.prepare(
    `UPDATE deliveries SET last_attempt_at = @now WHERE channel_id IN (SELECT id FROM channels) AND last_attempt_at > @now`,
  );
  const waitingBack = db.prepare(`UPDATE deliveries SET created_at = @now WHERE status = 'pending' AND created_at > @now`);
  const failingBack = db.prepare(`UPDATE channels SET failing_since = @now WHERE failing_since > @now`);

  return {
    /** Live monitors with a moment recorded after `now`: the clock was set back since. */
    aheadOf(now: number): MonitorRow[] {
      return aheadOf({ now });
    },
    bringBack(change: MonitorAtClock): void {
      bringBack.run(change);
    },
    /** Reminders, crontab watchers and the outbox's sends planned from a moment after `now`: planned from `now`. */
    plansBack(now: number): void {
      remindersBack.run({ now });
      reportsBack.run({ now });
      watchersBack.run({ now });
      deliveriesBack.run({ now });
      attemptsBack.run({ now });
      waitingBack.run({ now });
      failingBack.run({ now });
    },
  };
}
