import type { Monitor } from '../api/types';

export type DisplayStatus = 'monitoring' | 'running' | 'failed' | 'new';

/** The monitor's status as shown: the engine's `status` when present, else derived from is_alerted. */
export function monitorStatus(monitor: Monitor): DisplayStatus {
  if (monitor.is_alerted === 1 || monitor.status === 'failed') return 'failed';
  if (monitor.status === 'running') return 'running';
  return 'monitoring';
}

const labels: Record<string, string> = {
  monitoring: 'Up',
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
