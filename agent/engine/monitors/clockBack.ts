import { stateAtClock } from '../../domain/monitors/clockBack';
import { dueTimeKeepingGrace } from '../../domain/monitors/dueTime';
import type { EngineContext } from '../engineContext';
import { timingOf } from './monitorState';

/**
 * The agent's clock now reads `now`, earlier than it did a moment ago (set back while the agent
 * ran: NTP correcting a clock that ran ahead): every monitor with a moment recorded after it is brought back to it
 * (stateAtClock), in one transaction, so none waits until the clock reaches the moment it
 * recorded. No new grace: a catch-up grace in course runs from `now`. Reminders and crontab
 * watchers planned from such a moment are planned from `now`. Returns how many monitors changed.
 */
export function bringMonitorsBackToClock(ctx: EngineContext, now: number): number {
  const { store } = ctx;
  const changed = store.db.transaction(() => {
    const rows = store.clockBack.aheadOf(now);
    for (const row of rows) {
      const state = stateAtClock({ ...timingOf(row), lastRunAt: row.last_run_at, stateSince: row.state_since }, now);
      const { lastRunAt, stateSince, expectedRunAt, runningSince, graceFrom } = state;
      const { dueAt } = dueTimeKeepingGrace(state, graceFrom);
      store.clockBack.bringBack({ id: row.id, lastRunAt, stateSince, expectedRunAt, runningSince, graceFrom, dueAt, now });
    }
    store.clockBack.plansBack(now);
    return rows;
  })();
  for (const row of changed) ctx.events.emit({ type: 'monitor.changed', companyId: row.company_id, monitorId: row.id });
  return changed.length;
}
