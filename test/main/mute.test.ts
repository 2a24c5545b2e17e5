import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeMuteLabel, isMuted, muteUntil } from '../../main/mute';

const originalTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/London';
});
afterAll(() => {
  process.env.TZ = originalTz;
});

describe('muteUntil', () => {
  it('mutes for exactly one hour', () => {
    const now = new Date('2026-11-21T15:20:00Z');
    expect(muteUntil('hour', now)).toBe(Date.parse('2026-11-21T16:20:00Z'));
  });

  it('mutes until 08:00 local time on the next calendar day', () => {
    expect(muteUntil('tomorrow', new Date('2026-11-21T23:59:00Z'))).toBe(Date.parse('2026-11-22T08:00:00Z'));
    expect(muteUntil('tomorrow', new Date('2026-11-21T00:30:00Z'))).toBe(Date.parse('2026-11-22T08:00:00Z'));
  });

  it('follows the local clock across a daylight-saving switch', () => {
    // London moves to BST on 2026-03-29: 08:00 local that morning is 07:00 UTC.
    expect(muteUntil('tomorrow', new Date('2026-03-28T20:00:00Z'))).toBe(Date.parse('2026-03-29T07:00:00Z'));
  });

  it('turns popups back on', () => {
    expect(muteUntil('off', new Date())).toBeNull();
  });
});

describe('isMuted and the menu status line', () => {
  const until = Date.parse('2026-11-21T16:20:00Z');

  it('holds popups until the mute runs out, not after', () => {
    expect(isMuted(null, until)).toBe(false);
    expect(isMuted(until, until - 1)).toBe(true);
    expect(isMuted(until, until)).toBe(false);
  });

  it('never holds popups for longer than any mute lasts: one set by a clock that was wrong ends', () => {
    // The longest mute: "until tomorrow" at midnight, on the night the clocks go back (33 h).
    const midnight = Date.parse('2026-10-24T23:00:00Z'); // 00:00 BST on 25 October, the day London leaves BST
    expect(isMuted(muteUntil('tomorrow', new Date(midnight)), midnight)).toBe(true);
    const setWhileClockWasAYearAhead = Date.parse('2027-11-21T16:20:00Z');
    expect(isMuted(setWhileClockWasAYearAhead, until)).toBe(false);
    expect(activeMuteLabel(setWhileClockWasAYearAhead, until)).toBeNull();
  });

  it('says until when, and nothing once the mute ran out', () => {
    expect(activeMuteLabel(until, until - 60_000)).toBe('Popups muted until 16:20');
    expect(activeMuteLabel(Date.parse('2026-11-22T08:00:00Z'), until)).toBe('Popups muted until tomorrow 08:00');
    expect(activeMuteLabel(until, until)).toBeNull();
    expect(activeMuteLabel(null, until)).toBeNull();
  });
});
