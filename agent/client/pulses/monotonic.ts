/**
 * Milliseconds on the monotonic clock, as performance.now() counts them (from an arbitrary start;
 * only differences mean anything), for the job side's durations and budgets. The `performance`
 * global loads perf_hooks on first use, about 0.5 ms of every `cronbeat run`; process.hrtime reads
 * the same clock without it.
 */
export function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1e3 + nanoseconds / 1e6;
}
