/** The q-quantile (0..1) of `values` by the nearest-rank method; NaN for none. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank];
}

export const median = (values: number[]) => quantile(values, 0.5);

/** Milliseconds, with sub-millisecond precision, since `start` (a process.hrtime.bigint()). */
export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Times `fn` `runs` times after `warmup` untimed calls; the durations in ms. */
export async function timeRuns(fn: () => unknown, runs: number, warmup = 2): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const durations: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    durations.push(msSince(start));
  }
  return durations;
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
