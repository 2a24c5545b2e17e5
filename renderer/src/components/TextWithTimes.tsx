import { momentsInText } from '../../../agent/domain/momentsInText';
import { formatInSentence, utcTitle } from '../lib/format';
import { useNow } from '../lib/now';

/**
 * A message from the agent (an alert reason, a notification text) with each moment it names
 * shown in the viewer's zone and the UTC time on hover. The agent writes moments in the
 * monitor's zone and in UTC (agent/domain/alertReason.ts); the words stay the agent's.
 */
export function TextWithTimes(props: { text: string | null | undefined; fallback?: string }) {
  const now = useNow();
  const text = props.text || props.fallback || '';
  return (
    <>
      {momentsInText(text).map((piece, index) =>
        typeof piece === 'string' ? (
          piece
        ) : (
          <time key={index} dateTime={new Date(piece.at).toISOString()} title={utcTitle(new Date(piece.at).toISOString())}>
            {formatInSentence(piece.at, new Date(now))}
          </time>
        ),
      )}
    </>
  );
}
