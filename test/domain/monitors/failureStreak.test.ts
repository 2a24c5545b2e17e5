import { describe, expect, it } from 'vitest';
import { addFailure, failuresOf, streakReason, timingAfterCountedMiss } from '../../../agent/domain/monitors/failureStreak';
import { nextDeadline, type MonitorTiming } from '../../../agent/domain/monitors/dueTime';
import { applyPulse, type PulseState } from '../../../agent/domain/monitors/pulseEffect';

const at = (iso: string) => Date.parse(iso);

describe('addFailure', () => {
  it('alerts at the N-th failure in a row, once', () => {
    let streak = { alertAfter: 3, failures: [] as number[], alertSent: false };
    const alerts: boolean[] = [];
    for (const t of [1, 2, 3, 4]) {
      const counted = addFailure(streak, t);
      alerts.push(counted.alert);
      streak = counted.streak;
    }
    expect(alerts).toEqual([false, false, true, false]);
    expect(streak.failures).toEqual([1, 2, 3, 4]);
  });

  it('counts a run already counted once (missed, then reported failed late)', () => {
    const counted = addFailure({ alertAfter: 3, failures: [10, 20], alertSent: false }, 20);
    expect(counted).toEqual({ streak: { alertAfter: 3, failures: [10, 20], alertSent: false }, alert: false });
  });

  it('keeps at most 100 failures', () => {
    const counted = addFailure({ alertAfter: 100, failures: Array.from({ length: 100 }, (_, i) => i), alertSent: true }, 100);
    expect(counted.streak.failures).toHaveLength(100);
    expect(counted.streak.failures[0]).toBe(1);
  });
});

describe('a failed monitor still counting', () => {
  const timing: MonitorTiming = {
    schedule: '*/10 * * * *',
    timezone: 'UTC',
    durationMinutes: 1,
    expectedRunAt: at('2026-11-27T13:00:00Z'),
    runningSince: null,
    isAlerted: false,
    graceFrom: null,
  };

  it('keeps a deadline: the next run after the missed one; an alerted failure has none', () => {
    const missed = nextDeadline(timing)!;
    const counting = timingAfterCountedMiss(timing, missed);
    expect(counting.expectedRunAt).toBe(at('2026-11-27T13:10:00Z'));
    expect(nextDeadline(counting)?.deadline).toBe(at('2026-11-27T13:11:00Z'));
    expect(nextDeadline({ ...counting, alertSent: true })).toBeNull();
    expect(nextDeadline({ ...counting, alertSent: undefined })).toBeNull();
  });

  it('after a stuck run: the first run whose deadline is after the stuck one', () => {
    const stuck = nextDeadline({ ...timing, expectedRunAt: at('2026-11-27T13:30:00Z'), runningSince: at('2026-11-27T13:22:00Z'), maxRuntimeMinutes: 10 })!;
    expect(stuck.kind).toBe('stuck');
    const counting = timingAfterCountedMiss({ ...timing, runningSince: at('2026-11-27T13:22:00Z'), maxRuntimeMinutes: 10 }, stuck);
    expect(counting.runningSince).toBeNull();
    expect(counting.expectedRunAt).toBe(at('2026-11-27T13:40:00Z'));
  });

  it('a success pulse recovers it quietly; a failure pulse counts and alerts at the N-th', () => {
    const state: PulseState = {
      ...timing,
      isAlerted: true,
      alertSent: false,
      expectedRunAt: at('2026-11-27T13:10:00Z'),
      runningRid: null,
      lastRunAt: at('2026-11-27T12:55:00Z'),
      alertReasonData: null,
      stateSince: null,
      alertAfter: 2,
      failures: [at('2026-11-27T13:00:00Z')],
    };
    const fine = applyPulse(state, { kind: 'success', at: at('2026-11-27T13:10:20Z'), rid: null, exitCode: 0 });
    expect(fine.transition).toBeNull();
    expect(fine.state).toMatchObject({ isAlerted: false, failures: [] });
    const failed = applyPulse(state, { kind: 'fail', at: at('2026-11-27T13:10:20Z'), rid: null, exitCode: 1 });
    expect(failed.transition).toBe('failed');
    expect(failed.state).toMatchObject({ isAlerted: true, alertSent: true, failures: [at('2026-11-27T13:00:00Z'), at('2026-11-27T13:10:00Z')] });
    // Alerted: its success is a recovery to tell.
    expect(applyPulse(failed.state, { kind: 'success', at: at('2026-11-27T13:20:20Z'), rid: null, exitCode: 0 }).transition).toBe('recovered');
  });
});

describe('streakReason and failuresOf', () => {
  it('is the failure itself for one, failed_times for more', () => {
    const last = { kind: 'failed', exit_code: 3 } as const;
    expect(streakReason(last, [1])).toBe(last);
    expect(streakReason(last, [at('2026-11-27T13:00:00Z'), at('2026-11-27T13:10:00Z')])).toEqual({
      kind: 'failed_times',
      times: 2,
      runs: ['2026-11-27T13:00:00.000000Z', '2026-11-27T13:10:00.000000Z'],
      last,
    });
  });

  it('reads what was stored, and [] for anything else', () => {
    expect(failuresOf('[1,2]')).toEqual([1, 2]);
    expect(failuresOf('[]')).toEqual([]);
    expect(failuresOf('not json')).toEqual([]);
    expect(failuresOf('{"a":1}')).toEqual([]);
    expect(failuresOf(null)).toEqual([]);
  });
});
