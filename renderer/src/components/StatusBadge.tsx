import type { Monitor, MonitorStatus } from '../api/types';
import { PROBLEM_WORDS, problemOf, type Problem } from '../../../agent/domain/alerts/vocabulary';

export type DisplayStatus = MonitorStatus;

/** The monitor's status as shown: the engine's `status` when present, else derived from is_alerted. */
export function monitorStatus(monitor: Monitor): DisplayStatus {
  if (monitor.status === 'paused') return 'paused';
  if (monitor.is_alerted === 1 || monitor.status === 'failed') return 'failed';
  return monitor.status ?? 'monitoring';
}

/**
 * Which of the one vocabulary a failed monitor's badge says (failed, missed or stuck), from its
 * reason as data; null when it is not failed or its reason was not kept as data (it says "Failed").
 */
export function monitorProblem(monitor: Monitor): Problem | null {
  return monitorStatus(monitor) === 'failed' ? problemOf(monitor.alert_reason_data) : null;
}

/** What a badge says: a failed monitor's problem word ("Missed"), else the status's label. */
export function badgeLabel(status: string, problem?: Problem | null): string {
  if (status === 'failed' && problem) return PROBLEM_WORDS[problem].label;
  return labels[status] ?? status;
}

const labels: Record<string, string> = {
  monitoring: 'Up',
  maintenance: 'Maintenance',
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
  maintenance: 'neutral',
  pause: 'neutral',
  resume: 'neutral',
  expiring: 'warn',
  altered: 'warn',
  failed: 'bad',
  expired: 'bad',
  invalid: 'bad',
  unreachable: 'bad',
};

export function StatusBadge(props: { status: string; problem?: Problem | null }) {
  const problem = props.status === 'failed' ? props.problem ?? null : null;
  // A stuck run may still end well: amber, as alerts tone it; failed and missed are red.
  const tone = problem === 'stuck' ? 'warn' : tones[props.status] ?? 'neutral';
  return (
    <span
      className={`badge badge-${tone}`}
      data-status={props.status}
      data-problem={problem ?? undefined}
      title={problem ? `${PROBLEM_WORDS[problem].label}: ${PROBLEM_WORDS[problem].meaning}` : undefined}
    >
      <span className="badge-dot" aria-hidden="true" />
      {badgeLabel(props.status, problem)}
    </span>
  );
}
