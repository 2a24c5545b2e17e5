import type { MonitorStatus, TraySnapshot } from './trayModel';

/** The monitor columns the tray reads (running_since arrives with the engine's pulses). */
export interface MonitorStateRow {
  id: number;
  name: string;
  is_alerted: number;
  running_since?: number | null;
}

/** The part of the agent's store the tray reads; certificates once that feature is there. */
export interface TraySource {
  monitors: { list(companyId: number): MonitorStateRow[] };
  certificates?: { list(companyId: number): Array<{ status: string }> };
}

/** Certificate statuses as the agent stores them (agent/domain/certificates.ts). */
const EXPIRING_CERTIFICATE = new Set(['expiring']);
const FAILED_CERTIFICATE = new Set(['expired', 'invalid', 'unreachable']);

export function monitorStatus(row: MonitorStateRow): MonitorStatus {
  if (row.is_alerted) return 'failed';
  return row.running_since != null ? 'running' : 'monitoring';
}

/** Reads what the tray shows for one company, straight from the agent's repositories. */
export function readTraySnapshot(store: TraySource, companyId: number): TraySnapshot {
  const certificates = store.certificates?.list(companyId).map((c) => c.status) ?? [];
  return {
    monitors: store.monitors.list(companyId).map((row) => ({ id: row.id, name: row.name, status: monitorStatus(row) })),
    expiringCertificates: certificates.filter((s) => EXPIRING_CERTIFICATE.has(s)).length,
    failedCertificates: certificates.filter((s) => FAILED_CERTIFICATE.has(s)).length,
  };
}
