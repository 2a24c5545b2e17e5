import { describe, expect, it } from 'vitest';
import { applyPulse, type PulseState } from '../../../agent/domain/monitors/pulseEffect';

// applyPulse: the run awaited after an end that came after the next run was due.

const at = (iso: string) => Date.parse(iso);
const fine: PulseState = {
  schedule: '*/10 * * * *',
  timezone: 'UTC',
  durationMinutes: 1,
  expectedRunAt: at('2026-11-21T13:30:00Z'),
  runningSince: at('2026-11-21T13:22:00Z'),
  runningRid: null,
  isAlerted: false,
  graceFrom: null,
  lastRunAt: at('2026-11-21T13:22:00Z'),
  alertReasonData: null,
  stateSince: null,
};
const end = (state: PulseState, iso: string, rid: string | null = null, ridStartedAt: number | null = null) =>
  applyPulse(state, { kind: 'success', at: at(iso), rid, exitCode: 0 }, ridStartedAt).state.expectedRunAt;

describe('the run awaited after a run ends', () => {
  it('the first run after the end, when the next was due while it ran (it kept that one from starting)', () => {
    expect(end(fine, '2026-11-21T13:35:00Z')).toBe(at('2026-11-21T13:40:00Z'));
    // Failed while it ran (stuck): its recovery too.
    expect(end({ ...fine, isAlerted: true, alertSent: true }, '2026-11-21T13:35:00Z')).toBe(at('2026-11-21T13:40:00Z'));
  });

  it('the next run, when the end came before it was due', () => {
    expect(end(fine, '2026-11-21T13:29:50Z')).toBe(at('2026-11-21T13:30:00Z'));
    expect(end(fine, '2026-11-21T13:30:00Z')).toBe(at('2026-11-21T13:30:00Z'));
  });

  it('an end paired by its rid alone: so only beside no run in progress, and never past a run still awaited', () => {
    const held = { ...fine, runningSince: null, isAlerted: true, alertSent: true };
    expect(end(held, '2026-11-21T13:35:00Z', 'r1', at('2026-11-21T13:22:00Z'))).toBe(at('2026-11-21T13:40:00Z'));
    // Another run (b) is in progress: the end of a keeps the 13:30 run awaited.
    const other = { ...fine, runningRid: 'b', runningSince: at('2026-11-21T13:31:00Z') };
    expect(end(other, '2026-11-21T13:35:00Z', 'a', at('2026-11-21T13:22:00Z'))).toBe(at('2026-11-21T13:30:00Z'));
    // The monitor already awaits 13:40 (run b came and ended): a's end at 13:45 does not skip it.
    const awaiting = { ...fine, runningSince: null, expectedRunAt: at('2026-11-21T13:40:00Z') };
    expect(end(awaiting, '2026-11-21T13:45:00Z', 'a', at('2026-11-21T13:22:00Z'))).toBe(at('2026-11-21T13:40:00Z'));
  });

  it('on a fall-back night, the timer\'s next run after the end, not a second copy of the repeated hour', () => {
    // Every 20 minutes by a systemd timer in Paris: after 02:40 CEST (00:40 UTC) the next is 03:00 CET (02:00 UTC).
    const calendar: PulseState = { ...fine, schedule: '*:0/20', timezone: 'Europe/Paris', expectedRunAt: at('2026-10-25T00:40:00Z'), runningSince: at('2026-10-25T00:20:05Z'), lastRunAt: at('2026-10-25T00:20:05Z') };
    expect(new Date(end(calendar, '2026-10-25T01:35:00Z')!).toISOString()).toBe('2026-10-25T02:00:00.000Z');
  });
});
