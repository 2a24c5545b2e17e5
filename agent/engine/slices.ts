/*
 * Background work in short slices (issue 25.5). Failing a burst of 10,000 monitors or building a
 * digest of 10,000 alerts is seconds of CPU; done in one go it holds the event loop, and every
 * pulse waits for it. Here such work runs in small steps, as many as fit in a slice, then yields
 * to I/O (setImmediate: whatever arrived meanwhile, pulses above all, is served first) and goes on.
 *
 * A slice is short (SLICE_MS) while other work is waiting: a closed loop of clients leaves the
 * agent about half a millisecond between two rounds of requests, and a slice that fits there costs
 * them little. When the event loop came straight back again and again (nothing was waiting, nor
 * coming), a slice may be longer (IDLE_SLICE_MS) and its steps bigger: each step is a transaction,
 * and a commit costs about the same for one failure as for 50.
 */

/** How long a slice may hold the event loop while other work is waiting. */
export const SLICE_MS = 0.3;
/** How long a slice may hold it when nothing was waiting. */
export const IDLE_SLICE_MS = 8;
/** A yield that came back sooner than this found nothing waiting... */
const IDLE_GAP_MS = 0.1;
/** ...and after this many such yields in a row, nothing is coming either (clients answer within a millisecond or so). */
const IDLE_AFTER_QUICK_YIELDS = 10;

/** What a step is told: whether nothing was waiting when its slice began (it may then do more at once). */
export type Step = (idle: boolean) => boolean;

/**
 * Runs `step` (a short piece of work: one transaction at most; true while more remains) until it
 * returns false or throws, in slices, each after the I/O that waits. Then calls `done` (with the
 * error, if one was thrown): synchronously when the work fit in the first slice, which counts as
 * idle. Returns a function that cancels what has not run yet (`done` is then not called).
 */
export function runInSlices(step: Step, done: (error?: unknown) => void): () => void {
  let cancelled = false;
  let quickYields = IDLE_AFTER_QUICK_YIELDS;
  const resume = (yieldedAt: number) => {
    quickYields = performance.now() - yieldedAt < IDLE_GAP_MS ? quickYields + 1 : 0;
    slice(quickYields >= IDLE_AFTER_QUICK_YIELDS);
  };
  const slice = (idle: boolean) => {
    if (cancelled) return;
    const until = performance.now() + (idle ? IDLE_SLICE_MS : SLICE_MS);
    try {
      while (step(idle)) {
        if (cancelled) return;
        if (performance.now() >= until) {
          setImmediate(resume, performance.now());
          return;
        }
      }
    } catch (error) {
      done(error);
      return;
    }
    done();
  };
  slice(true);
  return () => {
    cancelled = true;
  };
}

/** runInSlices as a promise, for work whose caller awaits it anyway (a digest's body). */
export function inSlices(step: Step): Promise<void> {
  return new Promise((resolve, reject) => {
    runInSlices(step, (error) => (error === undefined ? resolve() : reject(error)));
  });
}
