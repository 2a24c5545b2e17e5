/**
 * TLS certificate rules: what a check's outcome means (status and last_error) and which
 * notification, if any, a new status deserves. Pure: `now` is always a parameter.
 */

export const CERTIFICATE_STATUSES = ['pending', 'valid', 'expiring', 'expired', 'invalid', 'unreachable'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/** Statuses that need the admin's attention: a change to one of them raises a desktop popup. */
export const BAD_CERTIFICATE_STATUSES: readonly CertificateStatus[] = ['expiring', 'expired', 'invalid', 'unreachable'];

/** Days left at which an `expiring` certificate gets one reminder each, largest first. */
export const REMINDER_DAYS = [7, 1] as const;

export const DAY_MS = 24 * 60 * 60 * 1000;

/** What the checker read from the leaf certificate. Dates are epoch milliseconds. */
export interface CertificateDetails {
  validFrom: number;
  expiresAt: number;
  issuer: string;
  subject: string;
  fingerprintSha256: string;
}

/** The raw outcome of one TLS connection attempt, before any judgement. */
export type CheckObservation =
  | { reachable: false; error: string }
  | {
      reachable: true;
      certificate: CertificateDetails;
      /** Why the chain or hostname failed verification (OpenSSL/Node code and message); null when it passed. */
      verifyError: { code: string; message: string } | null;
    };

export interface Classification {
  status: Exclude<CertificateStatus, 'pending'>;
  lastError: string | null;
}

const VERIFY_ERROR_TEXT: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'Self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'Self-signed certificate in the chain',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'Untrusted certificate: its issuer is not a trusted authority',
  UNABLE_TO_GET_ISSUER_CERT: 'Untrusted certificate: its issuer is not a trusted authority',
  // Only the leaf came and its issuer is unknown: most often a server that leaves out its intermediate (browsers may fetch it, other clients fail).
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'Untrusted certificate: the server sends no chain to a trusted authority (is an intermediate certificate missing?)',
  CERT_SIGNATURE_FAILURE: 'Invalid certificate signature',
  CERT_REVOKED: 'Certificate revoked',
  CERT_HAS_EXPIRED: 'A certificate in the chain has expired',
  CERT_NOT_YET_VALID: 'A certificate in the chain is not valid yet',
};

/** Human text for a failed verification; the hostname mismatch keeps Node's own explanation. */
function describeVerifyError(error: { code: string; message: string }): string {
  if (error.code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `Hostname mismatch: ${error.message}`;
  return VERIFY_ERROR_TEXT[error.code] ?? `Certificate not trusted (${error.code})`;
}

/** UTC date and time for messages, e.g. "2026-11-21 14:45 UTC". */
export function formatUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Judges one check. Order matters: unreachable, then expired (the most actionable fact, and
 * OpenSSL reports it in place of other chain errors), then not yet valid or untrusted or wrong
 * hostname (invalid), then fewer than `warnDays` days left (expiring), else valid.
 */
export function classifyCertificate(observation: CheckObservation, warnDays: number, now: number): Classification {
  if (!observation.reachable) return { status: 'unreachable', lastError: observation.error };
  const { certificate, verifyError } = observation;
  if (now > certificate.expiresAt) {
    return { status: 'expired', lastError: `Certificate expired on ${formatUtc(certificate.expiresAt)}` };
  }
  if (now < certificate.validFrom) {
    return { status: 'invalid', lastError: `Certificate not valid until ${formatUtc(certificate.validFrom)}` };
  }
  // A date error the leaf's own dates do not explain is about another certificate in the chain.
  if (verifyError) return { status: 'invalid', lastError: describeVerifyError(verifyError) };
  if (withinWarning(certificate.expiresAt, warnDays, now)) return { status: 'expiring', lastError: null };
  return { status: 'valid', lastError: null };
}

/**
 * Days left before expiry as people say it, rounded up: 6.5 days is "7 days", the last hours
 * are "1 day" (so the 7-day reminder says "7 days"). 0 once expired. The one rule: the alerts'
 * words and the dashboard's lists both count with it.
 */
export function daysLeft(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / DAY_MS));
}

/** Days since expiry, rounded up as daysLeft rounds (an hour ago is "1 day ago"); 0 while not expired. */
export function daysExpired(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((now - expiresAt) / DAY_MS));
}

/** Whether fewer than `warnDays` days are left: where `expiring` begins (classifyCertificate), and the dashboard's amber. */
export function withinWarning(expiresAt: number, warnDays: number, now: number): boolean {
  return expiresAt - now < warnDays * DAY_MS;
}

/**
 * The smallest reminder threshold (7 or 1 days) that the remaining time has reached, i.e.
 * expiry is at most that many days away. Null while more than 7 days are left.
 */
export function reachedReminder(expiresAt: number, now: number): number | null {
  const reached = REMINDER_DAYS.filter((days) => expiresAt - now <= days * DAY_MS);
  return reached.length ? Math.min(...reached) : null;
}

/**
 * The next moment after `now` at which the same certificate, checked again, says something new by
 * the clock alone: it becomes valid, comes within `warnDays` days, reaches a reminder or expires
 * (each as classifyCertificate and reachedReminder draw their lines); Infinity when none is ahead.
 */
export function nextCertificateMoment(certificate: { validFrom: number; expiresAt: number }, warnDays: number, now: number): number {
  const moments = [
    certificate.validFrom,
    certificate.expiresAt - warnDays * DAY_MS + 1,
    ...REMINDER_DAYS.map((days) => certificate.expiresAt - days * DAY_MS),
    certificate.expiresAt + 1,
  ].filter((moment) => moment > now);
  return moments.length ? Math.min(...moments) : Infinity;
}

/** What is stored about a certificate between checks, as far as notifications care. */
export interface NotificationState {
  status: CertificateStatus;
  fingerprintSha256: string | null;
  /** The smallest reminder threshold already told about for the current certificate; null when none. */
  reminderDays: number | null;
}

export type CertificateEventKind = 'changed' | 'renewed' | 'reminder';

export interface NotificationDecision {
  /** Null when nothing is worth telling: same status, same certificate, no new reminder. */
  event: CertificateEventKind | null;
  /** Whether the event also deserves a desktop popup. */
  popup: boolean;
  /** The reminder state to store after this check. */
  reminderDays: number | null;
}

/**
 * Decides what a check that found `next` (after `previous`) tells the admin: a change to a
 * bad status; else a new fingerprint, a renewal (which also covers a recovery that comes with
 * it); else a status change; else, while `expiring`, one reminder each time expiry comes within
 * 7 and within 1 day. A change to `expiring` counts as the reminders already reached, so a
 * certificate first seen 3 days before expiry gets its 1-day reminder only.
 */
export function decideNotification(
  previous: NotificationState,
  next: { status: CertificateStatus; fingerprintSha256: string | null; expiresAt: number | null },
  now: number,
): NotificationDecision {
  const reached = next.status === 'expiring' && next.expiresAt !== null ? reachedReminder(next.expiresAt, now) : null;
  const renewed =
    previous.fingerprintSha256 !== null &&
    next.fingerprintSha256 !== null &&
    previous.fingerprintSha256 !== next.fingerprintSha256;
  const changed = next.status !== previous.status;
  const popup = isBadStatus(next.status) && changed;
  // Turning bad is the headline even when a new certificate is the cause.
  if (renewed && !popup) return { event: 'renewed', popup, reminderDays: reached };
  if (changed) return { event: 'changed', popup, reminderDays: reached };
  if (reached !== null && (previous.reminderDays === null || reached < previous.reminderDays)) {
    return { event: 'reminder', popup: true, reminderDays: reached };
  }
  return { event: null, popup: false, reminderDays: next.status === 'expiring' ? previous.reminderDays : null };
}

export function isBadStatus(status: CertificateStatus): boolean {
  return BAD_CERTIFICATE_STATUSES.includes(status);
}
