import type { Monitor, MonitorStatus } from '../api/types';

export type DisplayStatus = MonitorStatus;

/** The monitor's status as shown: the engine's `status` when present, else derived from is_alerted. */
export function monitorStatus(monitor: Monitor): DisplayStatus {
  if (monitor.status === 'paused') return 'paused';
  if (monitor.is_alerted === 1 || monitor.status === 'failed') return 'failed';
  return monitor.status ?? 'monitoring';
}

const labels: Record<string, string> = {
  monitoring: 'Up',
  new: 'New',
  paused: 'Paused',
  running: 'Running',
  failed: 'Failed',
  valid: 'Valid',
  expiring: 'Expiring',
  expired: 'Expired',
  invalid: 'Invalid',
  unreachable: 'Unreachable',
  pending: 'Checking',
  recovered: 'Recovered',
  altered: 'Altered',
  success: 'Succeeded',
  start: 'Started',
  fail: 'Failed',
  pause: 'Paused',
  resume: 'Resumed',
};

const tones: Record<string, 'good' | 'busy' | 'bad' | 'warn' | 'neutral'> = {
  monitoring: 'good',
  valid: 'good',
  recovered: 'good',
  running: 'busy',
  start: 'busy',
  success: 'good',
  fail: 'bad',
  pending: 'neutral',
  // Never green or red: a new monitor has not run yet, a paused one is not watched.
  new: 'neutral',
  paused: 'neutral',
  pause: 'neutral',
  resume: 'neutral',
  expiring: 'warn',
  altered: 'warn',
  failed: 'bad',
  expired: 'bad',
  invalid: 'bad',
  unreachable: 'bad',
};

export function StatusBadge(props: { status: string }) {
  const tone = tones[props.status] ?? 'neutral';
  return (
    <span className={`badge badge-${tone}`} data-status={props.status}>
      <span className="badge-dot" aria-hidden="true" />
      {labels[props.status] ?? props.status}
    </span>
  );
}
