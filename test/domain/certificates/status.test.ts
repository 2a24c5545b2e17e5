import { describe, expect, it } from 'vitest';
import {
  classifyCertificate,
  daysLeft,
  decideNotification,
  DAY_MS,
  nextCertificateMoment,
  reachedReminder,
  type CertificateDetails,
  type CheckObservation,
  type NotificationState,
} from '../../../agent/domain/certificates/status';

const now = Date.UTC(2026, 10, 21, 15, 0, 0);

function seen(details: Partial<CertificateDetails>, verifyError: { code: string; message: string } | null = null): CheckObservation {
  return {
    reachable: true,
    verifyError,
    certificate: {
      validFrom: now - 30 * DAY_MS,
      expiresAt: now + 60 * DAY_MS,
      issuer: 'CN=Test CA',
      subject: 'CN=example.com',
      fingerprintSha256: 'AA',
      ...details,
    },
  };
}

describe('classifyCertificate', () => {
  it('is unreachable with the reason when nothing was read', () => {
    expect(classifyCertificate({ reachable: false, error: 'Connection refused' }, 14, now)).toEqual({
      status: 'unreachable',
      lastError: 'Connection refused',
    });
  });

  it('is expiring with fewer than warn_days days left, valid at exactly warn_days', () => {
    expect(classifyCertificate(seen({ expiresAt: now + 14 * DAY_MS }), 14, now).status).toBe('valid');
    expect(classifyCertificate(seen({ expiresAt: now + 14 * DAY_MS - 1 }), 14, now).status).toBe('expiring');
    expect(classifyCertificate(seen({ expiresAt: now + 2 * DAY_MS }), 1, now).status).toBe('valid');
  });

  it('is expired once now passes expires_at, even when OpenSSL also reports another problem', () => {
    expect(classifyCertificate(seen({ expiresAt: now }), 14, now).status).toBe('expiring');
    const expired = classifyCertificate(seen({ expiresAt: now - 1 }, { code: 'CERT_HAS_EXPIRED', message: '' }), 14, now);
    expect(expired).toEqual({ status: 'expired', lastError: 'Certificate expired on 2026-11-21 14:59 UTC' });
  });

  it('is invalid before valid_from', () => {
    const result = classifyCertificate(seen({ validFrom: now + DAY_MS }, { code: 'CERT_NOT_YET_VALID', message: '' }), 14, now);
    expect(result).toEqual({ status: 'invalid', lastError: 'Certificate not valid until 2026-11-22 15:00 UTC' });
  });

  it('is invalid with a readable reason when the chain or hostname fails', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['DEPTH_ZERO_SELF_SIGNED_CERT', '', /^Self-signed certificate$/],
      ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', '', /^Untrusted certificate/],
      ['ERR_TLS_CERT_ALTNAME_INVALID', "Host: a.test. is not in the cert's altnames: DNS:b.test", /^Hostname mismatch: Host: a\.test/],
      ['CERT_HAS_EXPIRED', '', /^A certificate in the chain has expired$/], // the leaf itself is fine
      ['SOMETHING_NEW', '', /^Certificate not trusted \(SOMETHING_NEW\)$/],
    ];
    for (const [code, message, expected] of cases) {
      const result = classifyCertificate(seen({}, { code, message }), 14, now);
      expect(result.status).toBe('invalid');
      expect(result.lastError).toMatch(expected);
    }
  });
});

describe('daysLeft and reachedReminder', () => {
  it('rounds days up and stops at 0', () => {
    expect(daysLeft(now + 6.5 * DAY_MS, now)).toBe(7);
    expect(daysLeft(now + 1, now)).toBe(1);
    expect(daysLeft(now - DAY_MS, now)).toBe(0);
  });

  it('reaches the 7-day reminder at 7 days left and the 1-day one at 1 day left', () => {
    expect(reachedReminder(now + 7 * DAY_MS + 1, now)).toBeNull();
    expect(reachedReminder(now + 7 * DAY_MS, now)).toBe(7);
    expect(reachedReminder(now + DAY_MS + 1, now)).toBe(7);
    expect(reachedReminder(now + DAY_MS, now)).toBe(1);
  });
});

describe('decideNotification', () => {
  const state = (s: Partial<NotificationState>): NotificationState => ({
    status: 'valid',
    fingerprintSha256: 'AA',
    reminderDays: null,
    ...s,
  });
  const next = (status: NotificationState['status'], daysToExpiry: number, fingerprintSha256: string | null = 'AA') => ({
    status,
    fingerprintSha256,
    expiresAt: now + daysToExpiry * DAY_MS,
  });

  it('tells about the first check, with a popup only when it is bad', () => {
    expect(decideNotification(state({ status: 'pending', fingerprintSha256: null }), next('valid', 60), now)).toEqual({
      event: 'changed',
      popup: false,
      reminderDays: null,
    });
    expect(decideNotification(state({ status: 'pending', fingerprintSha256: null }), next('expired', -1), now).popup).toBe(true);
  });

  it('says nothing when the same status repeats', () => {
    expect(decideNotification(state({}), next('valid', 60), now).event).toBeNull();
    expect(decideNotification(state({ status: 'unreachable' }), next('unreachable', 60, null), now).event).toBeNull();
  });

  it('pops up for every change to a bad state, not for a recovery', () => {
    for (const bad of ['expiring', 'expired', 'invalid', 'unreachable'] as const) {
      expect(decideNotification(state({}), next(bad, 3), now)).toMatchObject({ event: 'changed', popup: true });
    }
    expect(decideNotification(state({ status: 'invalid' }), next('valid', 60), now)).toMatchObject({
      event: 'changed',
      popup: false,
    });
  });

  it('reminds once at 7 and once at 1 day left while expiring', () => {
    const at10 = decideNotification(state({}), next('expiring', 10), now);
    expect(at10).toEqual({ event: 'changed', popup: true, reminderDays: null });
    const at9 = decideNotification(state({ status: 'expiring' }), next('expiring', 9), now);
    expect(at9.event).toBeNull();
    const at7 = decideNotification(state({ status: 'expiring' }), next('expiring', 6.9), now);
    expect(at7).toEqual({ event: 'reminder', popup: true, reminderDays: 7 });
    const at5 = decideNotification(state({ status: 'expiring', reminderDays: 7 }), next('expiring', 5), now);
    expect(at5).toEqual({ event: null, popup: false, reminderDays: 7 });
    const at1 = decideNotification(state({ status: 'expiring', reminderDays: 7 }), next('expiring', 0.9), now);
    expect(at1).toEqual({ event: 'reminder', popup: true, reminderDays: 1 });
    const after = decideNotification(state({ status: 'expiring', reminderDays: 1 }), next('expiring', 0.5), now);
    expect(after.event).toBeNull();
  });

  it('counts a change to expiring as the reminders already reached', () => {
    const firstSeen = decideNotification(state({ status: 'pending', fingerprintSha256: null }), next('expiring', 3), now);
    expect(firstSeen).toEqual({ event: 'changed', popup: true, reminderDays: 7 });
    const later = decideNotification(state({ status: 'expiring', reminderDays: 7 }), next('expiring', 0.5), now);
    expect(later.event).toBe('reminder');
  });

  it('tells about a renewal, which also covers a status change, and resets the reminders', () => {
    expect(decideNotification(state({}), next('valid', 90, 'BB'), now)).toEqual({
      event: 'renewed',
      popup: false,
      reminderDays: null,
    });
    const renewedFromExpiring = decideNotification(state({ status: 'expiring', reminderDays: 1 }), next('valid', 90, 'BB'), now);
    expect(renewedFromExpiring).toEqual({ event: 'renewed', popup: false, reminderDays: null });
  });

  it('makes a new certificate that is bad a change with a popup, not a renewal', () => {
    expect(decideNotification(state({}), next('invalid', 90, 'BB'), now)).toEqual({
      event: 'changed',
      popup: true,
      reminderDays: null,
    });
  });

  it('does not take an unreadable certificate for a renewal', () => {
    expect(decideNotification(state({}), next('unreachable', 60, null), now).event).toBe('changed');
  });
});

describe('nextCertificateMoment', () => {
  const certificate = { validFrom: now - 30 * DAY_MS, expiresAt: now + 20 * DAY_MS };

  it('is the next line the clock crosses: within warn_days, each reminder, then the expiry', () => {
    expect(nextCertificateMoment(certificate, 14, now)).toBe(now + 6 * DAY_MS + 1);
    expect(nextCertificateMoment(certificate, 14, now + 6 * DAY_MS + 1)).toBe(now + 13 * DAY_MS);
    expect(nextCertificateMoment(certificate, 14, now + 13 * DAY_MS)).toBe(now + 19 * DAY_MS);
    expect(nextCertificateMoment(certificate, 14, now + 19 * DAY_MS)).toBe(now + 20 * DAY_MS + 1);
    expect(nextCertificateMoment(certificate, 14, now + 20 * DAY_MS + 1)).toBe(Infinity);
  });

  it('each line is where the status or reminder changes', () => {
    const at = (moment: number) => classifyCertificate(seen(certificate), 14, moment).status;
    expect([at(now + 6 * DAY_MS), at(now + 6 * DAY_MS + 1)]).toEqual(['valid', 'expiring']);
    expect([reachedReminder(certificate.expiresAt, now + 13 * DAY_MS - 1), reachedReminder(certificate.expiresAt, now + 13 * DAY_MS)]).toEqual([null, 7]);
    expect([at(now + 20 * DAY_MS), at(now + 20 * DAY_MS + 1)]).toEqual(['expiring', 'expired']);
  });

  it('is the start of a certificate not valid yet', () => {
    expect(nextCertificateMoment({ validFrom: now + DAY_MS, expiresAt: now + 90 * DAY_MS }, 14, now)).toBe(now + DAY_MS);
  });
});
