import type { CertificateRepository, CertificateRow } from '../../db/certificates';
import type { Db } from '../../db/open';
import type { notificationRepository } from '../../db/notifications';
import type { CheckObservation } from '../../domain/certificates/status';
import { classifyCertificate, decideNotification, nextCertificateMoment, type NotificationState } from '../../domain/certificates/status';
import { certificateWindowEnd } from '../../domain/maintenance/windows';
import type { maintenanceWindowRepository } from '../../db/maintenanceWindows';
import type { AgentEvents } from '../events';
import type { Notifier } from '../popups/notifier';
import { certificateNotification, type CertificateSnapshot } from './messages';

/** What recording a check needs: the tables it writes, and whom it tells. */
export interface RecordContext {
  store: { db: Db; certificates: CertificateRepository; notifications: ReturnType<typeof notificationRepository>; maintenanceWindows: ReturnType<typeof maintenanceWindowRepository> };
  notifier: Notifier;
  events: AgentEvents;
  /** The admin's zone, which the notice's words tell its moments in (UTC when left out). */
  adminZone?: string;
}

/** What the channels were last told of `row`: what a maintenance window held, else what the row says. */
function toldState(row: CertificateRow): NotificationState {
  if (row.held === null) return { status: row.status, fingerprintSha256: row.fingerprint_sha256, reminderDays: row.reminder_days };
  const held = JSON.parse(row.held) as { status: NotificationState['status']; fingerprint_sha256: string | null; reminder_days: number | null };
  return { status: held.status, fingerprintSha256: held.fingerprint_sha256, reminderDays: held.reminder_days };
}

/**
 * Stores one check's outcome and, in the same transaction, the notification it deserves; then
 * tells live views and shows the popup, if any. Returns the updated row, or null when the
 * certificate was deleted meanwhile (the outcome is dropped).
 */
export function recordCheck(
  { store, events, notifier, adminZone }: RecordContext,
  id: number,
  observation: CheckObservation,
  now: number,
  intervalMs: number,
): CertificateRow | null {
  const outcome = store.db.transaction(() => {
    const row = store.certificates.findLive(id);
    if (!row) return null;
    const { status, lastError } = classifyCertificate(observation, row.warn_days, now);
    const seen = observation.reachable ? observation.certificate : null;
    // Measured against what the channels were told: news a maintenance window held is still news at its end.
    const told = toldState(row);
    const decision = decideNotification(told, { status, fingerprintSha256: seen?.fingerprintSha256 ?? null, expiresAt: seen?.expiresAt ?? null }, now);
    // Planned work may break a certificate for a while (a host down, a self-signed one in place): as for a
    // monitor, a window that covers it says nothing of it until it ends, then the check at its end tells once
    // what is still news. The certificate itself shows what the check found.
    const windowEnds = certificateWindowEnd(store.maintenanceWindows.windows(row.company_id), row.hostname, now);
    const holds = windowEnds !== null && (decision.event !== null || row.held !== null);
    // An unreachable host keeps showing the last certificate it served.
    const certificate = seen ?? {
      expiresAt: row.expires_at,
      validFrom: row.valid_from,
      issuer: row.issuer,
      subject: row.subject,
      fingerprintSha256: row.fingerprint_sha256,
    };
    store.certificates.recordCheck({
      id,
      status,
      ...certificate,
      lastError,
      reminderDays: decision.reminderDays,
      now,
      // The news the clock alone brings (an expiry, a reminder) is told when it is due, not at the next round.
      nextCheckAt: Math.min(now + intervalMs, seen ? nextCertificateMoment(seen, row.warn_days, now) : Infinity, holds ? windowEnds : Infinity),
      held: holds ? JSON.stringify({ status: told.status, fingerprint_sha256: told.fingerprintSha256, reminder_days: told.reminderDays }) : null,
    });
    if (!decision.event || holds) return { row, notification: null, popup: null };
    const snapshot: CertificateSnapshot = {
      id,
      hostname: row.hostname,
      port: row.port,
      status,
      expiresAt: certificate.expiresAt,
      issuer: certificate.issuer,
      lastCheckedAt: now,
      lastError,
    };
    const made = certificateNotification(snapshot, decision.event, now, adminZone);
    const notification = store.notifications.create({ companyId: row.company_id, ...made, now });
    const popup = decision.popup ? made.data : null;
    return { row, notification, popup };
  })();
  if (!outcome) return null;
  const companyId = outcome.row.company_id;
  events.emit({ type: 'certificate.changed', companyId, certificateId: id });
  if (outcome.notification) {
    events.emit({ type: 'notification.created', companyId, notificationId: outcome.notification.id });
  }
  if (outcome.popup) notifier.show({ title: outcome.popup.title, body: outcome.popup.description, route: '/certificates' });
  return store.certificates.findLive(id);
}
