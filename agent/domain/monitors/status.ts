/** Every value of a monitor's `status`, as the API shows it and its filter accepts it. */
export const MONITOR_STATUSES = ['new', 'monitoring', 'running', 'failed', 'paused'] as const;

/** What a monitor is doing, as the API's `status` field and the tray show it. */
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

/** The stored facts a monitor's status is read from (a monitor row has them). */
export interface MonitorStatusFacts {
  paused_at: number | null;
  is_alerted: number;
  running_since: number | null;
  last_pulse_at: number | null;
  resumed_at: number | null;
}

/**
 * What the API shows as a monitor's status: paused (the admin's choice comes first), failed,
 * running (a started run not ended), new (no pulse since it was made or last resumed; it still
 * fails when that run is late), or monitoring.
 */
export function monitorStatus(row: MonitorStatusFacts): MonitorStatus {
  if (row.paused_at !== null) return 'paused';
  if (row.is_alerted === 1) return 'failed';
  if (row.running_since !== null) return 'running';
  const waiting = row.last_pulse_at === null || (row.resumed_at !== null && row.last_pulse_at < row.resumed_at);
  return waiting ? 'new' : 'monitoring';
}
