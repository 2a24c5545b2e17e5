import { formatLocal, formatRelative, utcTitle } from '../lib/format';

/** A time in the viewer's zone, with the UTC time on hover. `relative` adds "3 min ago". */
export function Time(props: { value: string | null | undefined; relative?: boolean; empty?: string }) {
  const { value } = props;
  if (!value) return <span className="muted">{props.empty ?? '—'}</span>;
  return (
    <time dateTime={value} title={utcTitle(value)}>
      {props.relative ? formatRelative(value) : formatLocal(value)}
      {props.relative ? <span className="sr-only"> ({formatLocal(value)})</span> : null}
    </time>
  );
}
