import { formatLocal, formatRelative, utcTitle } from '../lib/format';
import { useNow } from '../lib/now';
import { viewerZone } from '../lib/schedule';

/**
 * A time in the viewer's zone, with the UTC time on hover. `relative` shows "3 min ago"; `past`
 * says the time cannot be in the future (a run, a notification), so a clock on the agent's
 * machine running ahead of this one (or a pulse newer than the last tick of the shared clock) shows
 * "just now" rather than "in 2 min".
 */
export function Time(props: { value: string | null | undefined; relative?: boolean; past?: boolean; empty?: string }) {
  const { value } = props;
  // The shared coarse clock, not Date.now(): a row re-renders when its data or the tick changes only.
  const now = useNow();
  if (!value) return <span className="muted">{props.empty ?? '—'}</span>;
  const ahead = props.past && new Date(value).getTime() > now;
  return (
    <time dateTime={value} title={utcTitle(value)}>
      {props.relative ? (ahead ? 'just now' : formatRelative(value, now)) : formatLocal(value, new Date(now))}
      {props.relative ? <span className="sr-only"> ({formatLocal(value)})</span> : null}
    </time>
  );
}

/**
 * A column's heading naming the viewer's zone, whose times it holds: "Expires (Europe/Paris)".
 * The zone may go to a second line, and break at its slashes: a long one (America/North_Dakota/New_Salem)
 * in a heading that never wraps widened the table past an 800 px window and cut off its buttons.
 */
export function ZoneHeading(props: { label: string }) {
  return (
    <>
      {props.label}
      <span className="th-zone">
        {' ('}
        {viewerZone()
          .split('/')
          .map((part, i) => (i === 0 ? part : [<wbr key={i} />, `/${part}`]))}
        )
      </span>
    </>
  );
}
