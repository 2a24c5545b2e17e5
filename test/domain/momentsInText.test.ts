import { describe, expect, it } from 'vitest';
import { describeMoment, missedDeadlineReason } from '../../agent/domain/alertReason';
import { formatUtc } from '../../agent/domain/certificates';
import { momentsInText } from '../../agent/domain/momentsInText';

describe('momentsInText', () => {
  const at = Date.UTC(2026, 10, 22, 22, 32);

  it('finds every form the agent writes, back to the exact instant', () => {
    for (const zone of ['UTC', 'Europe/Paris', 'America/Los_Angeles', 'Asia/Tokyo', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5']) {
      const written = describeMoment(at, zone);
      expect(momentsInText(`due at ${written}.`), zone).toEqual(['due at ', { at, written }, '.']);
    }
    expect(momentsInText(`valid until ${formatUtc(at)}, issued by R3.`)).toEqual(['valid until ', { at, written: '2026-11-22 22:32 UTC' }, ', issued by R3.']);
  });

  it('cuts a real reason with two moments', () => {
    const reason = missedDeadlineReason({ kind: 'no_pulse', runAt: at, deadline: at + 1_800_000, resumedAt: at + 3_600_000 }, 30, 'Europe/Paris');
    const moments = momentsInText(reason).filter((piece) => typeof piece !== 'string');
    expect(moments.map((m) => (m as { at: number }).at)).toEqual([at, at + 3_600_000]);
    expect(momentsInText(reason).map((p) => (typeof p === 'string' ? p : p.written)).join('')).toBe(reason);
  });

  it('leaves a text without moments whole', () => {
    expect(momentsInText('No pulse in time.')).toEqual(['No pulse in time.']);
    expect(momentsInText('')).toEqual([]);
  });
});
