import { describe, expect, it } from 'vitest';
import { digestMessage, webhookDigest, type DigestEntry } from '../../../agent/domain/alerts/digestMessage';
import { DAY_MS, type CertificateStatus } from '../../../agent/domain/certificates/status';
import { certificateNotification } from '../../../agent/engine/certificates/messages';

/*
 * A digest counts monitors: "3 monitors failed, 1 recovered". A certificate's news in one is an
 * "other alert", whatever its colour: a renewed certificate is no monitor that recovered.
 */

const now = Date.UTC(2026, 10, 21, 15);

function certificateEntry(id: number, status: CertificateStatus, event: 'changed' | 'renewed' = 'changed'): DigestEntry {
  const made = certificateNotification(
    { id, hostname: `h${id}.example`, port: 443, status, expiresAt: now + 60 * DAY_MS, issuer: 'CN=CA', lastCheckedAt: now, lastError: null },
    event,
    now,
  );
  return { alert: made.alert, notification: { id: `n${id}`, type: made.type, data: made.data } };
}

describe('a digest with certificates in it', () => {
  it('counts a valid or renewed certificate as another alert, not as a monitor that recovered', () => {
    const entries = [certificateEntry(1, 'valid'), certificateEntry(2, 'valid', 'renewed')];
    expect(digestMessage(entries, 'http://cron.example', 25).title).toBe('2 other alerts');
    expect(webhookDigest(entries, 'http://cron.example', now).counts).toEqual({ failed: 0, recovered: 0, other: 2 });
  });

  it('reads as good news when that is all it holds, and as bad when a certificate turned bad', () => {
    expect(digestMessage([certificateEntry(1, 'valid')], 'http://cron.example', 25).tone).not.toBe('bad');
    expect(digestMessage([certificateEntry(1, 'valid'), certificateEntry(2, 'expired')], 'http://cron.example', 25).tone).toBe('bad');
  });
});
