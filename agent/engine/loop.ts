import { isStorageFull } from '../db/storageErrors';
import type { Outage } from '../domain/monitors/dueTime';
import type { AgentEvents } from './events';
import type { OverdueFailer } from './failOverdue';
import type { Log } from '../log/logger';
import type { LoopHealthRecord } from './loopHealth';
import { describeError } from '../domain/text/errorText';

/** The loop never sleeps longer than this, so a changed clock or a missed wake-up costs at most this. */
export const MAX_SLEEP_MS = 30_000;
/** How often the loop notes that the process is running; a longer gap between two notes is a freeze. */
export const HEARTBEAT_MS = 1_000;
/**
 * A heartbeat this much later than the one before means the process did not run in between
 * (stopped with SIGSTOP, a closed laptop lid, a debugger): a freeze, whatever the loop's own
 * timer planned. Sockets that filled meanwhile are read only after the timers that come due.
 */
export const FREEZE_MS = 5_000;
/**
 * A heartbeat this much earlier than the one before means the clock was set back (NTP correcting
 * a clock that ran ahead, a wrong date at boot): what was recorded meanwhile is brought back to it.
 */
export const CLOCK_BACK_MS = 1_000;
/** While the database cannot be written, the loop retries after this, doubling up to MAX_RETRY_MS. */
export const FIRST_RETRY_MS = 1_000;
export const MAX_RETRY_MS = 30_000;
/**
 * With no pulse nor edit for this long, a burst is failed in bigger pieces (agent/engine/slices.ts).
 * Pulses come in rounds (cron starts jobs on the minute; a client retries, then pauses) with lulls
 * of a second or more between them, and a burst failed fast in such a lull starves the next round
 * (pulses fell to a third of their rate with 1 s in the alert-burst bench): the window spans those
 * lulls. The price, while pulses keep coming: a burst of 10,000 takes about 20 s to fail
 * (docs/performance.md).
 */
export const QUIET_MS = 5_000;

export interface MonitorLoopOptions {
  failer: OverdueFailer;
  events: AgentEvents;
  clock: () => number;
  log: Log;
  /** Where the loop notes when it ran and whether its writes fail (the watchdog reads it). */
  health?: LoopHealthRecord;
}

function cannotWrite(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const what = code === 'SQLITE_FULL' ? 'disk full' : 'the database refuses writes';
  return `Monitor loop: cannot write: ${what} (${typeof code === 'string' ? `${code}: ` : ''}${describeError(error)}); retrying with backoff`;
}

/**
 * Runs the failer's step: at start (after a resume grace), then whenever its next step has work
 * (nextStepAt), at least every MAX_SLEEP_MS, and re-planned whenever a monitor changes. A heartbeat
 * gap longer than FREEZE_MS (a freeze, a sleep, a clock jump forward) is an outage: monitors
 * whose deadline passed during it get a grace before anything is failed. While the database
 * cannot be written (disk full) it backs off, logs once when that starts and once when it
 * ends, and tells the user by popup what it cannot record yet. Returns the function that stops it.
 */
export function startMonitorLoop({ failer, events, clock, log, health }: MonitorLoopOptions): () => void {
  let timer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let lastBeat = clock();
  // An outage not yet graced (at first: the time before Cronbeat started).
  let outage: Outage | undefined = { from: null, to: lastBeat };
  // The clock was seen going back (noticeOutage). Never assumed at a start: a clock found earlier
  // than what was recorded may be the wrong one (a machine without a battery-backed clock boots at
  // an old date until NTP answers), and rewriting every monitor's past to it would lose it.
  let setBack = false;
  let retryMs = 0;
  let unwritable = false;
  let stopped = false;
  // A step failing a burst in slices (it plans the next step when it ends), and how to cancel it.
  let stepping = false;
  let cancelStep: (() => void) | undefined;
  // When a monitor or server last changed from outside (a pulse, an edit): a burst is failed in
  // bigger pieces only once nothing has for QUIET_MS.
  let outsideChangeAt = -Infinity;
  const quiet = () => performance.now() - outsideChangeAt > QUIET_MS;
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

  /**
   * Notes that the process runs at `now`; true when it had not run since the last note for longer
   * than FREEZE_MS, or the clock was set back by more than CLOCK_BACK_MS: a step has work then.
   */
  const noticeOutage = (now: number): boolean => {
    const frozen = now - lastBeat > FREEZE_MS;
    if (frozen) outage = { from: outage ? outage.from : lastBeat, to: now };
    const back = lastBeat - now > CLOCK_BACK_MS;
    if (back) setBack = true;
    lastBeat = now; // also when the clock went back: gaps are measured from here
    return frozen || back;
  };

  const plan = (delay?: number) => {
    if (stopped || stepping) return;
    const now = clock();
    if (noticeOutage(now)) delay = 0;
    const next = failer.nextStepAt();
    // While writes fail, not before the retry.
    const due = next === null ? MAX_SLEEP_MS : next - now;
    const wait = delay ?? Math.min(MAX_SLEEP_MS, Math.max(retryMs, 0, due));
    clearTimeout(timer);
    timer = setTimeout(tick, wait);
  };

  /** Tells the user, by reading only, which monitors fail now though their failure cannot be recorded. */
  const warnUnrecorded = (now: number) => {
    try {
      failer.warnUnrecorded(now, outage);
    } catch (error) {
      log(`Monitor loop: ${describeError(error)}`, { level: 'error' });
    }
  };

  /**
   * A clock set back brings what was recorded ahead of it back first; an outage noticed (at start,
   * or by the heartbeat meanwhile) gives its graces before anything is failed.
   */
  const graceAfterOutage = (now: number) => {
    if (setBack) failer.clockSetBack(now);
    setBack = false;
    if (outage) failer.graceOverdue(outage);
    outage = undefined;
  };

  const wrote = () => {
    health?.succeeded(clock());
    if (unwritable) log('Monitor loop: writing again', { level: 'info' });
    unwritable = false;
    retryMs = 0;
  };

  const couldNotWrite = (error: unknown, now: number) => {
    health?.failed(now);
    // Any error backs off: retrying at once would spin a core and flood the log.
    retryMs = Math.min(MAX_RETRY_MS, Math.max(FIRST_RETRY_MS, retryMs * 2));
    if (isStorageFull(error)) {
      if (!unwritable) log(cannotWrite(error), { level: 'error' });
      unwritable = true;
      warnUnrecorded(now);
    } else {
      log(`Monitor loop: ${describeError(error)}`, { level: 'error' });
    }
  };

  /**
   * One step (the failer's: quiet servers and reminders, then the overdue monitors in slices),
   * each slice at its own time and after the graces of any outage the heartbeat noticed
   * meanwhile. Bigger pieces once nothing changed from outside for QUIET_MS. Planned again when it ends.
   */
  const tick = () => {
    if (stepping) return; // the step under way plans the next one when it ends
    stepping = true;
    cancelStep = failer.step(
      {
        clock,
        idle: quiet,
        aroundSlice: (now, work) => {
          noticeOutage(now);
          health?.ran(now);
          whileBusy(() => {
            graceAfterOutage(now);
            work();
          });
        },
      },
      (error) => {
        stepping = false;
        if (error === undefined) wrote();
        else couldNotWrite(error, clock());
        plan();
      },
    );
  };

  const beat = () => {
    if (noticeOutage(clock())) tick();
    heartbeat = setTimeout(beat, HEARTBEAT_MS);
  };

  // A burst of pulses changes many monitors in one turn of the event loop (one batch, one
  // transaction): re-plan once after it, not once per pulse (each plan is a query and a timer).
  let planQueued = false;
  const planAfterThisTurn = () => {
    if (planQueued) return;
    planQueued = true;
    setImmediate(() => {
      planQueued = false;
      plan();
    });
  };
  const unsubscribe = events.subscribe((event) => {
    // A server's report moves when its watcher turns quiet, as a monitor's change moves its due time.
    if ((event.type === 'monitor.changed' || event.type === 'server.changed') && !busy) {
      outsideChangeAt = performance.now();
      planAfterThisTurn();
    }
  });
  tick();
  heartbeat = setTimeout(beat, HEARTBEAT_MS);

  return () => {
    stopped = true;
    cancelStep?.();
    clearTimeout(timer);
    clearTimeout(heartbeat);
    unsubscribe();
  };
}
