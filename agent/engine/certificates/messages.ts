import type { CertificateEventKind, CertificateStatus } from '../../domain/certificates/status';
import type { Alert, NoticeReason } from '../../domain/alerts/alert';
import { noticeZone, wordsOfNotice } from '../../domain/alerts/noticeWords';
import {
  NOTIFICATION_KINDS,
  type SslCertificateNotificationData,
  type SslCertificateUnreadableNotificationData,
} from '../../domain/alerts/notificationKinds';
import { toApiTimestamp, toNullableApiTimestamp } from '../../domain/time/apiTimestamps';

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

/** The alert of one event, checked at `now`: its reason as data, whose words the notification, the popup and every channel say. */
function certificateAlert(cert: CertificateSnapshot, event: CertificateEventKind, now: number): Alert & { reason: NoticeReason } {
  return {
    event: 'certificate',
    at: toApiTimestamp(now),
    reason: {
      kind: 'certificate',
      change: event,
      hostname: cert.hostname,
      port: cert.port,
      status: cert.status,
      expires_at: toNullableApiTimestamp(cert.expiresAt),
      issuer: cert.issuer,
      last_error: cert.lastError,
    },
    monitor: null,
    server: null,
    run: null,
    expected_at: null,
  };
}

/**
 * The notification of one event: `type` and `data`, field for field as the spec's tables list
 * them. The spec types ssl_certificate_expires_at as a timestamp, so a certificate that was
 * never read (its host unreachable since it was added) is told as Cronbeat's own kind,
 * SslCertificateUnreadableNotification, with the same fields and a null expiry. Once a
 * certificate was read, an unreachable host is told as the spec's kind with the expiry of the
 * last certificate it served and status `unreachable`. Its words tell moments in the admin's
 * `zone` (with UTC beside them), which `timezone` names.
 */
export function certificateNotification(
  cert: CertificateSnapshot,
  event: CertificateEventKind,
  now: number,
  zone = 'UTC',
):
  | { type: string; data: SslCertificateNotificationData; alert: Alert }
  | { type: string; data: SslCertificateUnreadableNotificationData; alert: Alert } {
  const alert = certificateAlert(cert, event, now);
  const common = {
    type: 'ssl_certificate' as const,
    type_id: cert.id,
    project_id: null,
    status: cert.status,
    ...wordsOfNotice(alert.reason, alert, zone),
    timezone: noticeZone(zone),
    icon: event === 'renewed' ? 'fa-solid fa-rotate' : ICONS[cert.status],
    ssl_certificate_hostname: cert.hostname,
    ssl_certificate_port: cert.port,
  };
  const checked = { ssl_certificate_status: cert.status, ssl_certificate_last_checked_at: toApiTimestamp(cert.lastCheckedAt) };
  if (cert.expiresAt === null) {
    return {
      type: NOTIFICATION_KINDS.sslCertificateUnreadable.type,
      data: { ...common, ssl_certificate_expires_at: null, ...checked },
      alert,
    };
  }
  return {
    type: NOTIFICATION_KINDS.sslCertificate.type,
    data: { ...common, ssl_certificate_expires_at: toApiTimestamp(cert.expiresAt), ...checked },
    alert,
  };
}
