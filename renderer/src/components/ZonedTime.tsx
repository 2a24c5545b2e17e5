import { timeInZones } from '../../../agent/domain/alerts/words';
import { formatLocal } from '../lib/format';

/**
 * A moment labelled with its zone, in the one format alerts use too: "Sat 28 Nov 00:00
 * Europe/Berlin (Fri 27 Nov 23:00 UTC)" (timeInZones in agent/domain/alerts/words.ts), so a time on a
 * monitor's page never leaves a reader guessing whose clock it is. Hover: the viewer's own clock.
 */
export function ZonedTime(props: { value: string | number | null | undefined; zone: string; seconds?: boolean; empty?: string }) {
  const ms = props.value === null || props.value === undefined ? NaN : typeof props.value === 'number' ? props.value : Date.parse(props.value);
  if (Number.isNaN(ms)) return <span className="muted">{props.empty ?? '—'}</span>;
  const iso = new Date(ms).toISOString();
  const text = timeInZones(ms, props.zone, 'UTC', props.seconds);
  // Two parts a narrow cell may put on two lines, each kept whole: "Fri 27 Nov 19:07:45 Europe/Paris" "(18:07:45 UTC)".
  const cut = text.indexOf(' (');
  return (
    <time dateTime={typeof props.value === 'string' ? props.value : iso} title={`${formatLocal(iso)} in your time zone`}>
      {cut < 0 ? (
        <span className="zoned-part">{text}</span>
      ) : (
        <>
          <span className="zoned-part">{text.slice(0, cut)}</span> <span className="zoned-part">{text.slice(cut + 1)}</span>
        </>
      )}
    </time>
  );
}
