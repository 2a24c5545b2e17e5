import type { Store } from '../agent/db/store';
import { monitorStatus } from '../agent/domain/monitorStatus';
import type { CertificateStatus } from '../agent/domain/certificates';
import type { TraySnapshot } from './trayModel';

/** Certificate statuses that turn the tray amber (soon to expire) or red (expired or failing checks). */
const EXPIRING_CERTIFICATE: ReadonlySet<CertificateStatus> = new Set(['expiring']);
const FAILED_CERTIFICATE: ReadonlySet<CertificateStatus> = new Set(['expired', 'invalid', 'unreachable']);

/** Reads what the tray shows for one company, straight from the agent's repositories. */
export function readTraySnapshot(store: Pick<Store, 'monitors' | 'certificates'>, companyId: number): TraySnapshot {
  const certificates = store.certificates.list(companyId).map((c) => c.status);
  return {
    monitors: store.monitors.list(companyId).map((row) => ({ id: row.id, name: row.name, status: monitorStatus(row) })),
    expiringCertificates: certificates.filter((s) => EXPIRING_CERTIFICATE.has(s)).length,
    failedCertificates: certificates.filter((s) => FAILED_CERTIFICATE.has(s)).length,
  };
}
