import { describe, expect, it } from 'vitest';
import { describeMoment } from '../../../agent/domain/alerts/reasonPieces';
import { applyPulse, isStalePulse, type PulseState } from '../../../agent/domain/monitors/pulseEffect';
import { isRetryOf, keptBody, PULSE_BODY_LIMIT, pulseAction, pulseTime, runDurationMs } from '../../../agent/domain/monitors/pulseInput';

const t = (iso: string) => Date.parse(iso);

describe('pulse path actions', () => {
  it.each([
    [undefined, { kind: 'success', exitCode: null }],
    ['start', { kind: 'start', exitCode: null }],
    ['fail', { kind: 'fail', exitCode: null }],
    ['0', { kind: 'success', exitCode: 0 }],
    ['1', { kind: 'fail', exitCode: 1 }],
    ['255', { kind: 'fail', exitCode: 255 }],
  ])('%s is %o', (segment, action) => {
    expect(pulseAction(segment)).toEqual(action);
  });

  it.each(['256', '-1', '1.0', '1e2', 'abc', '', 'START', '0001'])('%s is refused', (segment) => {
    expect(pulseAction(segment)).toBeNull();
  });
});

describe('the time a pulse counts for', () => {
  const now = t('2026-11-21T10:00:00Z');
  it.each<[string | undefined, number, string]>([
    [undefined, now, 'no header'],
    ['2026-11-21T09:00:00Z', t('2026-11-21T09:00:00Z'), 'an hour ago'],
    ['2026-11-20T10:00:00Z', t('2026-11-20T10:00:00Z'), 'exactly 24 h ago'],
    ['2026-11-20T09:59:59Z', t('2026-11-20T10:00:00Z'), 'more than 24 h ago: 24 h ago'],
    ['2026-11-14T10:00:00Z', t('2026-11-20T10:00:00Z'), 'a week ago: 24 h ago'],
    ['2026-11-21T10:00:01Z', now, 'in the future'],
    ['yesterday', now, 'unreadable'],
  ])('%s counts for %s (%s)', (header, expected) => {
    expect(pulseTime(now, header)).toBe(expected);
  });

  it('an age the client measured on its own clock wins over a time it states more than a minute off it, 24 h back at most', () => {
    // The job machine's clock is 5 h behind: the time it states is 5 h off, its age is not.
    expect(pulseTime(now, '2026-11-21T04:50:00Z', 600_000)).toBe(t('2026-11-21T09:50:00Z'));
    // Clocks that agree: the stated time, to the millisecond (the age is off by the request's transit).
    expect(pulseTime(now, '2026-11-21T09:50:00.123Z', 599_950)).toBe(t('2026-11-21T09:50:00.123Z'));
    expect(pulseTime(now, undefined, 0)).toBe(now);
    expect(pulseTime(now, 'yesterday', 30 * 3_600_000)).toBe(t('2026-11-20T10:00:00Z'));
  });

  it('an impossible date is unreadable, not rolled over to a real one (2026-02-29 is not March 1st)', () => {
    const march2 = t('2026-03-02T10:00:00Z');
    expect(pulseTime(march2, '2026-02-29T12:00:00Z')).toBe(march2);
    expect(pulseTime(march2, '2026-03-01T12:00:00Z')).toBe(t('2026-03-01T12:00:00Z'));
  });
});

describe('run durations', () => {
  it('takes the measured duration, else start to end, never negative, and none for a start', () => {
    expect(runDurationMs('success', 1_000, 91_000, 5)).toBe(5);
    expect(runDurationMs('fail', null, 91_000, 5)).toBe(5);
    expect(runDurationMs('success', 1_000, 91_000, null)).toBe(90_000);
    expect(runDurationMs('success', 3_600_000, 316, null)).toBe(0);
    expect(runDurationMs('success', null, 91_000, null)).toBeNull();
    expect(runDurationMs('start', 1_000, 91_000, 5)).toBeNull();
  });
});

describe('retries under one idempotency key', () => {
  const first = { kind: 'success' as const, exitCode: 0, rid: 'r1' };
  it('are the same kind, exit code and rid', () => {
    expect(isRetryOf(first, { ...first })).toBe(true);
    expect(isRetryOf(first, { ...first, kind: 'fail', exitCode: 1 })).toBe(false);
    expect(isRetryOf(first, { ...first, rid: null })).toBe(false);
  });
});

describe('kept bodies', () => {
  it('keeps a body that fits whole', () => {
    expect(keptBody(Buffer.from('héllo'), 6)).toEqual({ body: 'héllo', truncated: false });
  });

  it('cuts a longer one at the limit, never inside a character, and says how much went', () => {
    const text = 'a'.repeat(PULSE_BODY_LIMIT - 1) + 'é' + 'tail';
    const raw = Buffer.from(text);
    const { body, truncated } = keptBody(raw, raw.length);
    expect(truncated).toBe(true);
    expect(body).toBe(`${'a'.repeat(PULSE_BODY_LIMIT - 1)}\n[… 6 more bytes cut; Cronbeat keeps the first ${PULSE_BODY_LIMIT} bytes of a pulse body]`);
  });
});

describe('texts for people', () => {
  it('shows a moment in the zone and in UTC, with the UTC date when it differs', () => {
    expect(describeMoment(t('2026-11-21T09:00:00Z'), 'Europe/Paris')).toBe('2026-11-21 10:00 Europe/Paris (09:00 UTC)');
    expect(describeMoment(t('2026-11-21T03:00:00Z'), 'America/New_York')).toBe('2026-11-20 22:00 America/New_York (2026-11-21 03:00 UTC)');
    expect(describeMoment(t('2026-11-21T00:00:00Z'), 'Asia/Kolkata')).toBe('2026-11-21 05:30 Asia/Kolkata (00:00 UTC)');
    expect(describeMoment(t('2026-11-21T09:00:00Z'), 'UTC')).toBe('2026-11-21 09:00 UTC');
  });
});

describe('what a pulse does to a monitor', () => {
  const waiting: PulseState = {
    schedule: '0 * * * *',
    timezone: 'UTC',
    durationMinutes: 5,
    expectedRunAt: t('2026-11-21T10:00:00Z'),
    runningSince: null,
    runningRid: null,
    isAlerted: false,
    graceFrom: null,
    lastRunAt: t('2026-11-21T09:00:00Z'),
    alertReasonData: null,
    stateSince: null,
  };

  it('moves the expected run past the run a success answers', () => {
    const { state, transition } = applyPulse(waiting, { kind: 'success', at: t('2026-11-21T10:01:00Z'), rid: null, exitCode: null });
    expect(transition).toBeNull();
    expect(state.expectedRunAt).toBe(t('2026-11-21T11:00:00Z'));
    expect(state.lastRunAt).toBe(t('2026-11-21T10:01:00Z'));
  });

  it('never moves the expected run back for a replayed old pulse', () => {
    const { state } = applyPulse(waiting, { kind: 'success', at: t('2026-11-21T08:30:00Z'), rid: null, exitCode: null });
    expect(state.expectedRunAt).toBe(waiting.expectedRunAt);
    expect(state.lastRunAt).toBe(waiting.lastRunAt);
  });

  it('ends a resume grace with any pulse', () => {
    const graced = { ...waiting, graceFrom: t('2026-11-21T12:00:00Z') };
    expect(applyPulse(graced, { kind: 'start', at: t('2026-11-21T12:01:00Z'), rid: null, exitCode: null }).state.graceFrom).toBeNull();
  });

  it('leaves a failed monitor failed on a start, and recovers it on a success', () => {
    const failed = { ...waiting, isAlerted: true, alertReasonData: { kind: 'failed' as const, exit_code: null } };
    const started = applyPulse(failed, { kind: 'start', at: t('2026-11-21T12:00:00Z'), rid: 'x', exitCode: null });
    expect(started).toMatchObject({ transition: null, state: { isAlerted: true, runningSince: t('2026-11-21T12:00:00Z') } });
    const ended = applyPulse(started.state, { kind: 'success', at: t('2026-11-21T12:00:30Z'), rid: 'x', exitCode: 0 });
    expect(ended).toMatchObject({ transition: 'recovered', pairedStartAt: t('2026-11-21T12:00:00Z') });
    expect(ended.state).toMatchObject({ isAlerted: false, alertReasonData: null, runningSince: null, expectedRunAt: t('2026-11-21T13:00:00Z') });
  });

  it('never recovers a failure with a success older than it, nor fails with a fail older than the last success', () => {
    const failAt = t('2026-11-21T10:01:00Z');
    const failed = applyPulse(waiting, { kind: 'fail', at: failAt, rid: null, exitCode: 3 });
    expect(failed).toMatchObject({ transition: 'failed', state: { isAlerted: true, stateSince: failAt } });
    const stale = applyPulse(failed.state, { kind: 'success', at: failAt - 3_600_000, rid: null, exitCode: 0 });
    expect(stale.transition).toBeNull();
    expect(stale.state).toMatchObject({ isAlerted: true, alertReasonData: { kind: 'failed', exit_code: 3 }, stateSince: failAt });
    const fresh = applyPulse(stale.state, { kind: 'success', at: failAt + 1, rid: null, exitCode: 0 });
    expect(fresh).toMatchObject({ transition: 'recovered', state: { isAlerted: false, stateSince: failAt + 1 } });
    const oldFail = applyPulse(fresh.state, { kind: 'fail', at: failAt - 1, rid: null, exitCode: 1 });
    expect(oldFail).toMatchObject({ transition: null, state: { isAlerted: false } });
  });

  it('treats a pulse as stale only when it is older than what the state rests on', () => {
    expect(isStalePulse({ stateSince: null }, 0)).toBe(false);
    expect(isStalePulse({ stateSince: 1000 }, 1000)).toBe(false);
    expect(isStalePulse({ stateSince: 1000 }, 999)).toBe(true);
  });
});
