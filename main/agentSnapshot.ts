import type { Store } from '../agent/db/store';
import { monitorStatus } from '../agent/domain/monitors/status';
import type { CertificateStatus } from '../agent/domain/certificates/status';
import { isQuiet } from '../agent/domain/servers/quietAfter';
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

/** Reads what the tray shows for one company at `now`, straight from the agent's repositories. */
export function readTraySnapshot(store: Pick<Store, 'monitors' | 'certificates' | 'servers' | 'serverReports'>, companyId: number, now: number): TraySnapshot {
  const reports = store.serverReports.ofCompany(companyId);
  return {
    ...traySnapshotOf(
      store.monitors.list(companyId).map((row) => ({ id: row.id, name: row.name, status: monitorStatus(row) })),
      store.certificates.list(companyId).map((c) => c.status),
    ),
    // Quiet as the servers list says it (isQuiet), from the moment its notification is raised.
    quietServers: store.servers
      .list(companyId)
      .filter((server) => {
        const report = reports.get(server.id);
        return report !== undefined && isQuiet(report, now);
      })
      .map(({ id, name }) => ({ id, name })),
  };
}
