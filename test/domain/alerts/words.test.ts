import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../agent/domain/alerts/alert';
import { ranLine } from '../../../agent/domain/alerts/words';

/** A failed run of nightly-backup (Paris) that started at `started` and ended at `ended`, taking `durationMs`. */
function ran(started: string, ended: string, durationMs: number): Alert {
  return {
    event: 'monitor.failed',
    at: ended,
    reason: { kind: 'failed', exit_code: 3 },
    monitor: { id: 1, name: 'nightly-backup', slug: null, tags: [], schedule: '0 3 * * *', timezone: 'Europe/Paris', grace_minutes: 30 },
    server: null,
    run: { started_at: started, ended_at: ended, duration_ms: durationMs, exit_code: 3, output_tail: null, output_truncated: false },
    expected_at: null,
  };
}

describe('when a run ran', () => {
  it('says how long it took when it began and ended in the same second, not an empty range', () => {
    const line = ranLine(ran('2026-11-21T12:02:57.100Z', '2026-11-21T12:02:57.957Z', 857), { adminZone: 'UTC' });
    expect(line).toBe('Ran Sat 21 Nov 13:02:57 Europe/Paris (12:02:57 UTC), took 857 ms');
    expect(line).not.toMatch(/13:02:57–13:02:57/);
  });

  it('gives the range when the end is a later second', () => {
    expect(ranLine(ran('2026-11-21T12:02:57Z', '2026-11-21T12:03:09Z', 12_000), { adminZone: 'Europe/Paris' })).toBe('Ran Sat 21 Nov 13:02:57–13:03:09 Europe/Paris');
  });
});
