import type { ReasonPiece } from '../../../agent/domain/alerts/reasonPieces';
import { formatInSentence, utcTitle } from '../lib/format';
import { useNow } from '../lib/now';

/**
 * The agent's words from data (reasonPieces or alertPieces in agent/domain/alerts/reasonPieces.ts, the
 * same the API's alert_reason and notification descriptions are made of) with each moment in the
 * viewer's zone and UTC on hover. Without data (a failure from before reasons were kept as data,
 * or a notice of another kind) the stored `text` is shown as it is: nothing is read back out of words.
 */
export function AlertReasonText(props: { pieces: ReasonPiece[] | null; text: string | null | undefined; fallback?: string }) {
  const now = useNow();
  if (props.pieces === null) return <>{props.text || props.fallback || ''}</>;
  return (
    <>
      {props.pieces.map((piece, index) => {
        if (typeof piece === 'string') return piece;
        const iso = new Date(piece.at).toISOString();
        return (
          <time key={index} dateTime={iso} title={utcTitle(iso)}>
            {formatInSentence(piece.at, new Date(now))}
          </time>
        );
      })}
    </>
  );
}
