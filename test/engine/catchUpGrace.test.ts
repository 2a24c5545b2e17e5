import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { PulseState } from '../../agent/domain/monitors/pulseEffect';
import { applyPulse } from '../../agent/domain/monitors/pulseEffect';
import { timingUpdate } from '../../agent/engine/monitors/monitorState';
import { at, engineFixture } from './engineFixture';

const DAY = 86_400_000;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
let fixture: ReturnType<typeof engineFixture>;
afterEach(() => fixture?.close());

/** Replays `sentAt` pulses at `now`, each followed by a loop step at the same moment, as the loop runs after every change. */
async function replay(token: string, now: number, sentAt: string[], kind: 'success' | 'start' = 'success', rid: string | null = null) {
  for (const sent of sentAt) {
    await fixture.pulse(token, now, { at: at(sent), kind, rid });
    await fixture.step(now + 1);
  }
}

describe('pulses that come late', () => {
  it('a spool replayed after the agent was down raises no failed/recovered flapping', async () => {
    fixture = engineFixture(at('2026-11-21T10:00:20Z'));
    const monitor = fixture.monitor({ schedule: '* * * * *', duration: 1 });
    const resumedAt = at('2026-11-21T10:03:30Z');
    fixture.failer.graceOverdue({ from: null, to: resumedAt });
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-21T10:04:30.000Z');

    await replay(monitor.token, resumedAt + 100, ['2026-11-21T10:01:05Z', '2026-11-21T10:02:05Z', '2026-11-21T10:03:05Z']);
    expect(fixture.notifications()).toEqual([]);
    expect(fixture.notifier.popups).toEqual([]);
    // The last replayed pulse answers 10:03: the next run (10:04) is due at 10:05, ahead of now.
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, due_at: at('2026-11-21T10:05:00Z'), grace_from: null });
  });

  it('a start and end pair replayed later than the duration is a run, not "not finished" then recovered', async () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 1 });
    const resumedAt = at('2026-11-21T10:30:00Z');
    fixture.failer.graceOverdue({ from: null, to: resumedAt });
    await replay(monitor.token, resumedAt + 50, ['2026-11-21T10:00:00Z'], 'start', 'r1');
    await replay(monitor.token, resumedAt + 100, ['2026-11-21T10:00:02Z'], 'success', 'r1');
    expect(fixture.notifications()).toEqual([]);
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, running_since: null, due_at: at('2026-11-21T11:01:00Z') });
  });

  it('a success pulse during a resume grace never fails the monitor at once', async () => {
    fixture = engineFixture(at('2026-11-20T12:00:00Z'));
    const monitor = fixture.monitor({ schedule: '0 3 * * *', duration: 30 });
    await fixture.pulse(monitor.token, at('2026-11-21T01:59:00Z'), { at: at('2026-11-21T01:59:00Z') });
    // The laptop slept from 02:00 to 09:00; the 03:00 run's deadline passed meanwhile.
    const wokeAt = at('2026-11-21T09:00:00Z');
    fixture.failer.graceOverdue({ from: at('2026-11-21T02:00:00Z'), to: wokeAt });
    expect(iso(fixture.reload(monitor.id).due_at)).toBe('2026-11-21T09:30:00.000Z');

    // A server's spool replays a success pulse it could not send at 02:30 (for yesterday's run).
    const arrived = at('2026-11-21T09:05:00Z');
    await fixture.pulse(monitor.token, arrived, { at: at('2026-11-21T02:30:00Z') });
    await fixture.step(arrived + 1);
    expect(fixture.notifications()).toEqual([]);
    expect(fixture.reload(monitor.id)).toMatchObject({ is_alerted: 0, grace_from: arrived, due_at: at('2026-11-21T09:35:00Z') });

    // The grace hides nothing for good: with no pulse for today's 03:00 run it ends in a failure.
    await fixture.step(at('2026-11-21T09:35:00.001Z'));
    expect(fixture.alertReason(monitor.id)).toBe(
      'Missed: the run due 2026-11-21 03:00 UTC did not come, nor within 30 min of Cronbeat resuming at 2026-11-21 09:05 UTC; last run 2026-11-21 02:30 UTC',
    );
    expect(fixture.notifications()).toHaveLength(1);
  });

  it('a live pulse that answers the expected run moves the deadline as before, with no grace', async () => {
    fixture = engineFixture(at('2026-11-21T09:58:30Z'));
    const monitor = fixture.monitor({ schedule: '0 * * * *', duration: 5 });
    await fixture.pulse(monitor.token, at('2026-11-21T10:02:00Z'));
    expect(fixture.reload(monitor.id)).toMatchObject({ grace_from: null, due_at: at('2026-11-21T11:05:00Z') });
  });
});

describe('a success pulse never fails a monitor (property)', () => {
  it('leaves it not failed, due no earlier than now, whatever its state and however late the pulse', () => {
    const now = at('2026-11-21T12:00:00Z');
    const time = fc.integer({ min: now - 2 * DAY, max: now + DAY });
    fc.assert(
      fc.property(
        fc.constantFrom('* * * * *', '*/5 * * * *', '0 * * * *', '30 2 * * *', '0 3 * * 1'),
        fc.constantFrom('UTC', 'America/New_York', 'Australia/Lord_Howe'),
        fc.integer({ min: 1, max: 24 * 60 }),
        fc.option(time),
        fc.option(time),
        fc.option(time),
        fc.boolean(),
        fc.integer({ min: 0, max: DAY }),
        fc.constantFrom(null, 'r1'),
        (schedule, timezone, durationMinutes, expectedRunAt, runningSince, graceFrom, isAlerted, lateBy, rid) => {
          const state: PulseState = {
            schedule, timezone, durationMinutes, expectedRunAt, runningSince, graceFrom, isAlerted,
            runningRid: runningSince === null ? null : 'r1', lastRunAt: now - 3 * DAY, alertReasonData: isAlerted ? { kind: 'failed', exit_code: null } : null, stateSince: null,
          };
          const effect = applyPulse(state, { kind: 'success', at: now - lateBy, rid, exitCode: null });
          const stored = timingUpdate(1, effect.state, now, now - lateBy);
          expect(stored.isAlerted).toBe(0);
          if (stored.dueAt !== null) expect(stored.dueAt).toBeGreaterThanOrEqual(now);
        },
      ),
      { numRuns: 300 },
    );
  });
});
