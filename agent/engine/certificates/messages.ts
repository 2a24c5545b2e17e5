import type { CertificateEventKind, CertificateStatus } from '../../domain/certificates/status';
import { daysLeft, formatUtc } from '../../domain/certificates/status';
import {
  NOTIFICATION_KINDS,
  type SslCertificateNotificationData,
  type SslCertificateUnreadableNotificationData,
} from '../../domain/alerts/notificationKinds';
import { toApiTimestamp } from '../../domain/time/apiTimestamps';

/** The certificate as it stands after a check, as far as messages need it. Times in ms. */
export interface CertificateSnapshot {
  id: number;
  hostname: string;
  port: number;
  status: CertificateStatus;
  expiresAt: number | null;
  issuer: string | null;
  lastCheckedAt: number;
  lastError: string | null;
}

const ICONS: Record<CertificateStatus, string> = {
  pending: 'fa-solid fa-hourglass-start',
  valid: NOTIFICATION_KINDS.sslCertificate.icon,
  expiring: 'fa-solid fa-hourglass-half',
  expired: 'fa-solid fa-calendar-xmark',
  invalid: 'fa-solid fa-shield-halved',
  unreachable: 'fa-solid fa-plug-circle-xmark',
};

/** "example.com", or "example.com:8443" when the port is not the usual one. */
export function hostLabel(cert: { hostname: string; port: number }): string {
  return cert.port === 443 ? cert.hostname : `${cert.hostname}:${cert.port}`;
}

function remaining(expiresAt: number, now: number): string {
  const days = daysLeft(expiresAt, now);
  return days === 1 ? 'in 1 day' : `in ${days} days`;
}

function statusTitle(cert: CertificateSnapshot, now: number): string {
  const host = hostLabel(cert);
  switch (cert.status) {
    case 'valid':
      return `Certificate valid: ${host}`;
    case 'expiring':
      return `Certificate expires ${remaining(cert.expiresAt ?? now, now)}: ${host}`;
    case 'expired':
      return `Certificate expired: ${host}`;
    case 'invalid':
      return `Certificate invalid: ${host}`;
    case 'unreachable':
      return `Certificate check failed: ${host}`;
    case 'pending':
      return `Certificate not checked yet: ${host}`;
  }
}

function statusSentence(cert: CertificateSnapshot): string {
  const host = hostLabel(cert);
  const until = cert.expiresAt === null ? '' : formatUtc(cert.expiresAt);
  const issuer = cert.issuer ? `, issued by ${cert.issuer}` : '';
  const reason = (cert.lastError ?? 'unknown reason').replace(/\.$/, '');
  switch (cert.status) {
    case 'valid':
      return `The certificate of ${host} is valid until ${until}${issuer}.`;
    case 'expiring':
      return `The certificate of ${host} expires on ${until}${issuer}. Renew it before then.`;
    case 'expired':
      return `The certificate of ${host} expired on ${until}. Visitors now see a security warning.`;
    case 'invalid':
      return `The certificate of ${host} is not trusted: ${reason}.`;
    case 'unreachable':
      return `${host} could not be checked: ${reason}.`;
    case 'pending':
      return `${host} has not been checked yet.`;
  }
}

/** Title and text for one event; the same words serve the notification list and the popup. */
export function describeEvent(
  cert: CertificateSnapshot,
  event: CertificateEventKind,
  now: number,
): { title: string; description: string } {
  if (event === 'renewed') {
    return {
      title: `Certificate ${cert.status === 'valid' ? 'renewed' : 'replaced'}: ${hostLabel(cert)}`,
      description: `${hostLabel(cert)} serves a new certificate. ${statusSentence(cert)}`,
    };
  }
  return { title: statusTitle(cert, now), description: statusSentence(cert) };
}

/**
 * The notification of one event: `type` and `data`, field for field as the spec's tables list
 * them. The spec types ssl_certificate_expires_at as a timestamp, so a certificate that was
 * never read (its host unreachable since it was added) is told as Cronbeat's own kind,
 * SslCertificateUnreadableNotification, with the same fields and a null expiry. Once a
 * certificate was read, an unreachable host is told as the spec's kind with the expiry of the
 * last certificate it served and status `unreachable`.
 */
export function certificateNotification(
  cert: CertificateSnapshot,
  event: CertificateEventKind,
  now: number,
):
  | { type: string; data: SslCertificateNotificationData }
  | { type: string; data: SslCertificateUnreadableNotificationData } {
  const common = {
    type: 'ssl_certificate' as const,
    type_id: cert.id,
    project_id: null,
    status: cert.status,
    ...describeEvent(cert, event, now),
    timezone: 'UTC',
    icon: event === 'renewed' ? 'fa-solid fa-rotate' : ICONS[cert.status],
    ssl_certificate_hostname: cert.hostname,
    ssl_certificate_port: cert.port,
  };
  const checked = { ssl_certificate_status: cert.status, ssl_certificate_last_checked_at: toApiTimestamp(cert.lastCheckedAt) };
  if (cert.expiresAt === null) {
    return {
      type: NOTIFICATION_KINDS.sslCertificateUnreadable.type,
      data: { ...common, ssl_certificate_expires_at: null, ...checked },
    };
  }
  return {
    type: NOTIFICATION_KINDS.sslCertificate.type,
    data: { ...common, ssl_certificate_expires_at: toApiTimestamp(cert.expiresAt), ...checked },
  };
}
