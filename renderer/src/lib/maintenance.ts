import type { MaintenanceWindowResource } from '../../../agent/contract/maintenanceWindows';
import { coversMonitor } from '../../../agent/domain/maintenance/windows';
import type { Monitor } from '../api/types';
import type { DisplayStatus } from '../components/StatusBadge';

/** Whether a window under way (the API's `active`, as of its last read) covers `monitor`, by the agent's own rule. */
export function underMaintenance(windows: readonly MaintenanceWindowResource[] | undefined, monitor: Pick<Monitor, 'id' | 'tags'>): boolean {
  return (windows ?? []).some((w) => w.active && coversMonitor({ monitorIds: w.monitor_ids, tags: w.tags }, { id: monitor.id, tags: monitor.tags ?? [] }));
}

/**
 * The status a badge shows: a monitor that would say "Up" says "Maintenance" while a window
 * covers it, since nothing watches its runs then (one may be missing). Failed, running, new and
 * paused say so as ever.
 */
export function withMaintenance(status: DisplayStatus, covered: boolean): DisplayStatus | 'maintenance' {
  return status === 'monitoring' && covered ? 'maintenance' : status;
}
