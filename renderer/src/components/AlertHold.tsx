import type { Monitor } from '../api/types';
import { PROBLEM_WORDS, problemOf } from '../../../agent/domain/alerts/vocabulary';
import { timesInARow } from '../../../agent/domain/alerts/streakWords';
import { Time } from './Time';

/*
 * Why a failed monitor has sent no alert (yet): it alerts after N failures in a row, or its alerts
 * are held while it flaps (docs/monitoring.md). The status above it always shows the truth.
 */

const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;

export function AlertHold(props: { monitor: Monitor }) {
  const m = props.monitor;
  if (m.flapping_since) {
    return (
      <div className="status-maintenance" data-testid="monitor-alert-hold">
        Flapping since <Time value={m.flapping_since} />: no alerts until it has been steady for an hour.
      </div>
    );
  }
  const after = m.alert_after ?? 1;
  const sofar = m.failures_in_a_row ?? 0;
  if (m.is_alerted !== 1 || after <= 1 || sofar >= after) return null;
  // One so far is the failure the status shows, in its own word; several may mix the three words.
  const problem = problemOf(m.alert_reason_data);
  const once = problem === null ? 'Went wrong once' : `${PROBLEM_WORDS[problem].label} once`;
  return (
    <div className="status-maintenance" data-testid="monitor-alert-hold">
      {sofar === 1 ? once : `Went wrong ${timesInARow(sofar)}`}: no alert yet, one is sent at the {ordinal(after)} in a row.
    </div>
  );
}

/** "after 3 failures in a row", or "at the first failure". */
export function alertsAfterWords(n: number | undefined): string {
  return !n || n === 1 ? 'at the first failure' : `after ${n} failures in a row`;
}
