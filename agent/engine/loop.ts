import type { AgentEvents } from './events';
import type { Scheduler } from './scheduler';

/** The loop never sleeps longer than this, so a changed clock or a missed wake-up costs at most this. */
export const MAX_SLEEP_MS = 30_000;
/** Waking this much later than planned means the machine slept or the clock jumped forward. */
export const CLOCK_JUMP_MS = 60_000;

export interface MonitorLoopOptions {
  scheduler: Scheduler;
  events: AgentEvents;
  /** The earliest due time of all monitors, null when none waits for anything. */
  earliestDueAt: () => number | null;
  clock: () => number;
  log: (line: string) => void;
}

/**
 * Runs the scheduler: at start (after a resume grace), then whenever the earliest due time
 * comes, at least every MAX_SLEEP_MS, and re-planned whenever a monitor changes. A wake-up far
 * later than planned counts as a resume (sleep, clock jump) and gives overdue monitors a grace.
 * Returns the function that stops it.
 */
export function startMonitorLoop({ scheduler, events, earliestDueAt, clock, log }: MonitorLoopOptions): () => void {
  let timer: NodeJS.Timeout | undefined;
  let plannedWake = clock();
  let resumed = false;
  let stopped = false;
  // While the loop itself grants graces or fails monitors, their change events need no re-plan
  // each (a resume can touch 100,000 monitors): the loop plans once when it is done.
  let busy = false;
  const whileBusy = (work: () => void) => {
    busy = true;
    try {
      work();
    } finally {
      busy = false;
    }
  };

  const plan = (delay?: number) => {
    if (stopped) return;
    const now = clock();
    // A wake-up that comes far too late (even one caused by a pulse before the timer fired).
    if (now - plannedWake > CLOCK_JUMP_MS) resumed = true;
    const earliest = earliestDueAt();
    // Monitors fail once their due time is passed, so wake just after it.
    const wait = delay ?? Math.min(MAX_SLEEP_MS, Math.max(0, earliest === null ? MAX_SLEEP_MS : earliest + 1 - now));
    plannedWake = now + wait;
    clearTimeout(timer);
    timer = setTimeout(tick, wait);
  };

  const tick = () => {
    const now = clock();
    let more = false;
    try {
      whileBusy(() => {
        if (resumed || now - plannedWake > CLOCK_JUMP_MS) scheduler.graceOverdue({ from: null, to: now });
        resumed = false;
        plannedWake = now;
        more = scheduler.failOverdue(now);
      });
    } catch (error) {
      log(`Monitor loop: ${error instanceof Error ? error.message : String(error)}`);
    }
    plan(more ? 0 : undefined);
  };

  const unsubscribe = events.subscribe((event) => {
    if (event.type === 'monitor.changed' && !busy) plan();
  });
  whileBusy(() => scheduler.graceOverdue({ from: null, to: clock() }));
  tick();

  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
  };
}
