import { describe, expect, it } from 'vitest';
import { canRunSystemd, differential } from './calendarDifferential';

// A seeded slice of the differential run (calendarDifferential.ts, which runs thousands): Cronbeat's
// calendar events against the real `systemd-analyze calendar` on this machine, around daylight-saving
// switches. Skipped where systemd-analyze or libfaketime is missing.
describe.skipIf(!canRunSystemd)('calendar events against systemd-analyze', () => {
  it('accepts and refuses what systemd does, and finds the same next runs', { timeout: 120_000 }, async () => {
    const result = await differential(20261127, 1500, 5);
    expect(result.disagreements).toEqual([]);
    expect(result.cases).toBe(1500);
    // The slice compares runs, not only refusals.
    expect(result.runs).toBeGreaterThan(3_500);
    expect(result.refused).toBeGreaterThan(100);
  });
});
