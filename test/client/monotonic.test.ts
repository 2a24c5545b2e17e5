import { describe, expect, it } from 'vitest';
import { monotonicMs } from '../../agent/client/pulses/monotonic';

describe('monotonicMs', () => {
  it('counts milliseconds as performance.now() does, on the same clock', () => {
    const [mono, perf] = [monotonicMs(), performance.now()];
    while (performance.now() - perf < 20) {
      // A short wait on the clock itself: no timer's lateness in the figure.
    }
    const [monoAfter, perfAfter] = [monotonicMs(), performance.now()];
    expect(Math.abs(monoAfter - mono - (perfAfter - perf))).toBeLessThan(1);
    expect(monoAfter).toBeGreaterThan(mono);
  });
});
