import { describe, expect, it } from 'vitest';
import { scheduleLine, whatHappened } from '../../agent/domain/alerts/words';
import { formatDuration } from '../../renderer/src/lib/format';

/* The dashboard and the alerts say a duration in the same words: a run's length, and a grace. */

type Alert = Parameters<typeof whatHappened>[0];
const monitor = { id: 1, name: 'backup', slug: null, tags: [], schedule: '0 3 * * *', timezone: 'UTC', grace_minutes: 30 };
const failedAfter = (durationMs: number) =>
  ({
    event: 'failed', at: '2026-11-21T03:05:00Z', reason: { kind: 'failed', exit_code: 1 }, monitor, server: null,
    run: { duration_ms: durationMs, ended_at: '2026-11-21T03:05:00Z' }, expected_at: null,
  }) as unknown as Alert;

describe('durations in the dashboard and in alerts', () => {
  it.each([850, 4_250, 12_400, 185_000, 97 * 60_000, 27 * 3_600_000, (1440 + 30) * 60_000])('say %d ms alike', (ms) => {
    expect(whatHappened(failedAfter(ms), { adminZone: 'UTC' })).toBe(`Failed: the job exited with code 1 after ${formatDuration(ms)}.`);
  });

  it.each([1, 90, 1440, 1470, 2 * 1440 + 180])('say a grace of %d minutes alike', (minutes) => {
    const line = scheduleLine({ ...failedAfter(1000), monitor: { ...monitor, grace_minutes: minutes } } as Alert);
    expect(line).toMatch(new RegExp(`, grace ${formatDuration(minutes * 60_000)}$`));
  });
});
