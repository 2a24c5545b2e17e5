import type { Monitor } from '../api/types';
import { monitorStatus } from './StatusBadge';
import { Time } from './Time';
import { ZonedTime } from './ZonedTime';

/**
 * When the monitor's next pulse is due, or why nothing is: a failed monitor waits for a pulse,
 * a paused one for its resume (or its snooze's end), and a new one for its first run.
 */
export function NextDue(props: { monitor: Monitor; relative?: boolean; zoned?: boolean }) {
  const m = props.monitor;
  const status = monitorStatus(m);
  // Failed but still counting towards its alert (alert after N failures): its next run is still watched.
  // Otherwise only a success brings it back (a start or a failure does not): the CLI's words.
  if (status === 'failed' && m.next_due_at === null) {
    return (
      <span className="muted" title="A failed monitor is watched again from its next success pulse">
        Waits for a success pulse
      </span>
    );
  }
  if (status === 'paused') {
    return m.paused_until ? (
      <span className="muted" data-testid="snoozed-until">
        {props.relative ? 'Snoozed, back ' : 'Snoozed until '}
        {props.zoned ? <ZonedTime value={m.paused_until} zone={m.timezone} /> : <Time value={m.paused_until} relative={props.relative} />}
      </span>
    ) : (
      <span className="muted">Paused until resumed</span>
    );
  }
  if (props.zoned) return <ZonedTime value={m.next_due_at} zone={m.timezone} empty="No run ahead" />;
  return <Time value={m.next_due_at} relative={props.relative} empty="No run ahead" />;
}

/** When a pulse last came, or "never" for a monitor that has not heard one yet. */
export function LastRun(props: { monitor: Monitor; relative?: boolean; zoned?: boolean }) {
  const m = props.monitor;
  if (m.last_pulse_at === null) return <span className="muted">never</span>;
  if (props.zoned) return <ZonedTime value={m.last_pulse_at} zone={m.timezone} />;
  return <Time value={m.last_pulse_at} relative={props.relative} past />;
}
