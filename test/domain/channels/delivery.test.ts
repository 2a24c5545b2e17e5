import { describe, expect, it } from 'vitest';
import { BACKOFF_MS, bounded, channelFailurePopupDue, MAX_RETRY_AFTER_MS, nextAttemptAt, quietHoursEnd, retryAfterMs, RETRY_FOR_MS } from '../../../agent/domain/channels/delivery';
import { isMasked, maskedSettings, mergeSettings } from '../../../agent/domain/channels/settings';
import { routingEvent } from '../../../agent/domain/channels/routing';
import { channelKind } from '../../../agent/contract/channels';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;

describe('nextAttemptAt', () => {
  it('waits longer after each failure, then every hour, and gives up past the deadline', () => {
    const now = at('2026-11-21T10:00:00Z');
    expect(nextAttemptAt(1, now, now + RETRY_FOR_MS)).toBe(now + 30_000);
    expect(nextAttemptAt(2, now, now + RETRY_FOR_MS)).toBe(now + 60_000);
    expect(nextAttemptAt(50, now, now + RETRY_FOR_MS)).toBe(now + HOUR);
    expect(nextAttemptAt(3, now, now + BACKOFF_MS[2] - 1)).toBeNull();
  });

  it('waits at least what the receiver asked (Retry-After), and gives up when that is past the deadline', () => {
    const now = at('2026-11-21T10:00:00Z');
    expect(nextAttemptAt(1, now, now + RETRY_FOR_MS, 120_000)).toBe(now + 120_000);
    expect(nextAttemptAt(1, now, now + RETRY_FOR_MS, 5_000)).toBe(now + 30_000);
    expect(nextAttemptAt(1, now, now + 60_000, 120_000)).toBeNull();
  });
});

describe('retryAfterMs', () => {
  const now = at('2026-11-21T10:00:00Z');
  it('reads seconds (whole or not) and HTTP dates, against now', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 1.5 ', now)).toBe(1_500);
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs('Sat, 21 Nov 2026 10:01:30 GMT', now)).toBe(90_000);
    expect(retryAfterMs('Sat, 21 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });
  it('never waits more than an hour, whatever a receiver says', () => {
    expect(retryAfterMs('99999999999', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs('Fri, 31 Dec 9999 23:59:59 GMT', now)).toBe(MAX_RETRY_AFTER_MS);
  });
  it('says nothing for what is not a delay', () => {
    for (const value of [null, undefined, '', 'soon', '-5', '1e9', '1 2', 'Infinity', 'Sun, 99 Foo 2026 GMT']) expect(retryAfterMs(value, now)).toBeNull();
  });
});

describe('quietHoursEnd', () => {
  const night = { start: '22:00', end: '07:00', timezone: 'Europe/Paris' };
  it('is null outside the hours, without hours, or when start equals end', () => {
    expect(quietHoursEnd(night, at('2026-11-21T12:00:00Z'))).toBeNull();
    expect(quietHoursEnd(null, at('2026-11-21T23:00:00Z'))).toBeNull();
    expect(quietHoursEnd({ ...night, end: '22:00' }, at('2026-11-21T21:30:00Z'))).toBeNull();
    // 07:00 in Paris is the end itself: no longer quiet.
    expect(quietHoursEnd(night, at('2026-11-22T06:00:00Z'))).toBeNull();
  });
  it('gives the end in the channel\'s zone, across midnight', () => {
    expect(quietHoursEnd(night, at('2026-11-21T21:00:30Z'))).toBe(at('2026-11-22T06:00:00Z')); // 22:00:30 Paris
    expect(quietHoursEnd(night, at('2026-11-22T03:15:00Z'))).toBe(at('2026-11-22T06:00:00Z')); // 04:15 Paris
  });
  it('ends at the end on the wall clock on the nights the clocks change, not an hour off', () => {
    // Paris springs forward on 29 Mar 2026 (02:00 CET → 03:00 CEST) and falls back on 25 Oct (03:00 CEST → 02:00 CET).
    expect(quietHoursEnd(night, at('2026-03-28T22:00:00Z'))).toBe(at('2026-03-29T05:00:00Z')); // 23:00 CET → 07:00 CEST
    expect(quietHoursEnd(night, at('2026-10-24T21:00:00Z'))).toBe(at('2026-10-25T06:00:00Z')); // 23:00 CEST → 07:00 CET
    // An end in the hour that does not exist (02:30 on the spring night) comes when the clock jumps past it.
    const early = { start: '01:00', end: '02:30', timezone: 'Europe/Paris' };
    expect(quietHoursEnd(early, at('2026-03-29T00:15:00Z'))).toBe(at('2026-03-29T01:00:00Z')); // 01:15 CET → 03:00 CEST
    // New York, the same: 22:00–07:00 across 8 Mar 2026 (02:00 EST → 03:00 EDT).
    expect(quietHoursEnd({ ...night, timezone: 'America/New_York' }, at('2026-03-08T04:00:00Z'))).toBe(at('2026-03-08T11:00:00Z'));
  });
  it('reads a zone this machine does not know (stored elsewhere) as UTC, never throwing', () => {
    const unknown = { start: '22:00', end: '07:00', timezone: 'Mars/Olympus' };
    expect(quietHoursEnd(unknown, at('2026-11-21T23:00:00Z'))).toBe(at('2026-11-22T07:00:00Z'));
    expect(quietHoursEnd(unknown, at('2026-11-21T12:00:00Z'))).toBeNull();
  });
  it('handles hours within one day', () => {
    const lunch = { start: '12:00', end: '13:30', timezone: 'UTC' };
    expect(quietHoursEnd(lunch, at('2026-11-21T12:45:10Z'))).toBe(at('2026-11-21T13:30:00Z'));
    expect(quietHoursEnd(lunch, at('2026-11-21T13:30:00Z'))).toBeNull();
  });
});

describe('channel rules', () => {
  it('raises the failing-channel popup after an hour of failures, never for a working channel', () => {
    const now = at('2026-11-21T10:00:00Z');
    expect(channelFailurePopupDue(null, now)).toBe(false);
    expect(channelFailurePopupDue(now - HOUR + 1, now)).toBe(false);
    expect(channelFailurePopupDue(now - HOUR, now)).toBe(true);
  });

  it('cuts stored texts, marking the cut', () => {
    expect(bounded('x'.repeat(2000))).toHaveLength(2000);
    expect(bounded('x'.repeat(5000))).toBe(`${'x'.repeat(1999)}…`);
  });

  it('masks secrets, and a PATCH keeps a secret it leaves out or sends masked', () => {
    const stored = { webhook_url: 'https://hooks.slack.com/services/T/B/x' };
    expect(maskedSettings(channelKind('slack'), stored)).toEqual({ webhook_url: 'https://hooks.slack.com/********' });
    expect(isMasked('https://hooks.slack.com/********')).toBe(true);
    expect(mergeSettings(channelKind('slack'), stored, { webhook_url: 'https://hooks.slack.com/********' })).toEqual(stored);
    expect(mergeSettings(channelKind('email'), { password: 'p', host: 'a' }, { host: 'b' })).toEqual({ password: 'p', host: 'b' });
    expect(mergeSettings(channelKind('email'), { password: 'p' }, { password: null })).toEqual({ password: null });
  });

  it('counts recoveries and failures for routing', () => {
    expect(routingEvent({ type: 'monitor', status: 'failed' })).toBe('failure');
    expect(routingEvent({ type: 'monitor', status: 'recovered' })).toBe('recovery');
    expect(routingEvent({ type: 'ssl_certificate', status: 'expired' })).toBe('failure');
    expect(routingEvent({ type: 'ssl_certificate', status: 'valid' })).toBe('recovery');
    expect(routingEvent({ type: 'server', status: 'altered' })).toBe('other');
  });

  it('counts a flapping or steady-again alert as what it says the monitor is now', () => {
    const monitor = { type: 'monitor', status: 'flapping' } as const;
    const flapping = { kind: 'flapping', changes: 5, since: '2026-11-27T13:00:00.000000Z', window_minutes: 60 } as const;
    const steady = { kind: 'steady', flapping_since: '2026-11-27T13:00:00.000000Z', changes: 7, steady_minutes: 60, failed_since: null } as const;
    expect(routingEvent(monitor, { ...flapping, failed: true })).toBe('failure');
    expect(routingEvent(monitor, { ...flapping, failed: false })).toBe('recovery');
    expect(routingEvent({ ...monitor, status: 'steady' }, { ...steady, failed: true })).toBe('failure');
    expect(routingEvent({ ...monitor, status: 'steady' }, { ...steady, failed: false })).toBe('recovery');
  });
});
