import type { Store } from '../agent/db/store';
import { monitorStatus } from '../agent/domain/monitors/status';
import type { CertificateStatus } from '../agent/domain/certificates/status';
import type { MonitorSummary, TraySnapshot } from './trayModel';

/** Certificate statuses that turn the tray amber (soon to expire) or red (expired or failing checks). */
const EXPIRING_CERTIFICATE: ReadonlySet<string> = new Set<CertificateStatus>(['expiring']);
const FAILED_CERTIFICATE: ReadonlySet<string> = new Set<CertificateStatus>(['expired', 'invalid', 'unreachable']);

/** What the tray shows, from monitors and certificate statuses however they were read (repositories or the API). */
export function traySnapshotOf(monitors: MonitorSummary[], certificateStatuses: string[]): TraySnapshot {
  return {
    monitors,
    expiringCertificates: certificateStatuses.filter((s) => EXPIRING_CERTIFICATE.has(s)).length,
    failedCertificates: certificateStatuses.filter((s) => FAILED_CERTIFICATE.has(s)).length,
  };
}

/** Reads what the tray shows for one company, straight from the agent's repositories. */
export function readTraySnapshot(store: Pick<Store, 'monitors' | 'certificates'>, companyId: number): TraySnapshot {
  return traySnapshotOf(
    store.monitors.list(companyId).map((row) => ({ id: row.id, name: row.name, status: monitorStatus(row) })),
    store.certificates.list(companyId).map((c) => c.status),
  );
}
