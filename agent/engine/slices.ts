import { performance } from 'node:perf_hooks';

/*
 * Background work in short slices. Failing a burst of 10,000 monitors or building a
 * digest of 10,000 alerts is seconds of CPU; done in one go it holds the event loop, and every
 * pulse waits for it. Here such work runs in small steps, as many as fit in a slice, then yields
 * to I/O (whatever arrived meanwhile, pulses above all, is served first) and goes on.
 *
 * While requests may come, a slice is short (SLICE_MS), and once other work ran between two slices
 * the next one waits, so that slices hold the event loop for at most BUSY_SHARE of the time while
 * requests are answered: run back to back with only I/O between them, slices took half the loop,
 * and pulses fell to a third of their rate while a burst was failed or its digests built. Between
 * slices with no request arrived (noteRequest, which the HTTP server calls for each), the next
 * follows at once, so a burst is not slowed where nothing waits (on a machine where the agent gets
 * little CPU, a small share of the wall time is little work). The event loop's own count of its busy time
 * told this before, but its overhead between two slices alone (0.02–0.4 ms) crossed any threshold
 * low enough to see a few pulses, so slices waited for nothing.
 * When the caller knows nothing else is going
 * on (the monitor loop: no pulse for a while), a slice may be longer (IDLE_SLICE_MS), its steps
 * bigger (each step is a transaction, and a commit costs about the same for one failure as for
 * 50), and the next one follows at once. (Guessing that from how soon the event loop came back did
 * not work: on a loaded machine it misread both ways.)
 */

/** How long a slice may hold the event loop while other work may come (requests are being answered). */
export const SLICE_MS = 1;
/**
 * The share of the time slices (of all background work together) may hold the event loop while
 * other work may come. A fifth, then 15%, left pulses no room above the four fifths of their rate
 * they should keep while a burst drains (the burst's garbage collection, write-ahead-log
 * checkpoints and the delivery worker's sends come on top). A tenth left them 66–91% (median 75%)
 * in eight runs of the bench's burst alternating with eight at a twentieth, which read 77–98%
 * (median 87%); every receiver heard of 10,000 failures × 3 channels within 9.0–10.4 s at a tenth,
 * 9.3–13 s at a twentieth (docs/performance.md, round 4's twelfth pass). A burst that small
 * (an admin's usual few) fits in the first slice, which is whole, and is not slowed at all.
 */
export const BUSY_SHARE = 0.05;
/** How long it may hold it when the caller knows nothing else is going on. */
export const IDLE_SLICE_MS = 8;

/** Requests that arrived since the agent started: one more since a slice ended says other work ran. */
let requests = 0;

/**
 * Until when no slice of any background work starts while requests come (performance.now()): the
 * pieces of background work share BUSY_SHARE. Each keeping its own share, a burst's failures, a
 * digest built and another settled beside them held the event loop for half the time or more.
 */
let pausedUntil = 0;

/** Notes a request from outside (a pulse, an API call): the next slice leaves the event loop to it first. */
export function noteRequest(): void {
  requests++;
}

/** What a step is told: whether nothing else is going on (it may then do more at once). */
export type Step = (idle: boolean) => boolean;

/**
 * Runs `step` (a short piece of work: one transaction at most; true while more remains) until it
 * returns false or throws, in slices, each after the I/O that waits (and, unless idle, after a pause
 * that keeps the slices of all background work together to BUSY_SHARE of the time). `idle` says, before each slice, whether nothing
 * else is going on (default: never sure). Then calls `done` (with the error,
 * if one was thrown): synchronously when the work fit in the first slice, which is as long as an
 * idle one unless `wholeFirst` is false. Returns a function that cancels what has not run yet (`done` is then not called).
 */
export function runInSlices(step: Step, done: (error?: unknown) => void, idle: () => boolean = () => false, wholeFirst = true): () => void {
  let cancelled = false;
  // Requests noted when the last slice ended: any since are other work.
  let requestsAtEnd: number | undefined;
  const slice = (first: boolean) => {
    if (cancelled) return;
    const othersRan = requestsAtEnd !== undefined && requests !== requestsAtEnd;
    // The first slice is whole (a step's usual few monitors, at once) unless the caller knows its work is long; after it, short unless idle.
    const callerIdle = idle();
    const pause = pausedUntil - performance.now();
    if (!first && !callerIdle && pause > 0) {
      setTimeout(slice, pause, false);
      return;
    }
    const quiet = (first && wholeFirst) || callerIdle;
    const start = performance.now();
    const until = start + (quiet ? IDLE_SLICE_MS : SLICE_MS);
    try {
      while (step(quiet)) {
        if (cancelled) return;
        const now = performance.now();
        if (now >= until) {
          requestsAtEnd = requests;
          if (callerIdle || !othersRan) setImmediate(slice, false);
          else {
            pausedUntil = Math.max(pausedUntil, now + ((now - start) * (1 - BUSY_SHARE)) / BUSY_SHARE);
            setTimeout(slice, pausedUntil - now, false);
          }
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

/**
 * runInSlices as a promise, for work whose caller awaits it anyway (a digest's body, settling its
 * alerts): work over thousands of rows, whose first slice is as short as the others.
 */
export function inSlices(step: Step): Promise<void> {
  return new Promise((resolve, reject) => {
    runInSlices(step, (error) => (error === undefined ? resolve() : reject(error)), undefined, false);
  });
}
