import type { ReasonPiece } from '../../../agent/domain/alerts/reasonPieces';
import { timeInZones } from '../../../agent/domain/alerts/words';
import { formatInSentence, utcTitle } from '../lib/format';
import { useNow } from '../lib/now';

/**
 * The agent's words from data (reasonPieces or alertPieces in agent/domain/alerts/reasonPieces.ts, the
 * same the API's alert_reason and notification descriptions are made of) with each moment in the
 * viewer's zone and UTC on hover (or, given a `zone`, labelled with that zone and UTC). Without data (a failure from before reasons were kept as data,
 * or a notice of another kind) the stored `text` is shown as it is: nothing is read back out of words.
 */
export function AlertReasonText(props: { pieces: ReasonPiece[] | null; text: string | null | undefined; fallback?: string; zone?: string }) {
  const now = useNow();
  if (props.pieces === null) return <>{props.text || props.fallback || ''}</>;
  return (
    <>
      {props.pieces.map((piece, index) => {
        if (typeof piece === 'string') return piece;
        const iso = new Date(piece.at).toISOString();
        return (
          <time key={index} dateTime={iso} title={utcTitle(iso)}>
            {/* On a monitor's page, in its zone and UTC, as every time there is labelled. */}
            {props.zone ? timeInZones(piece.at, props.zone, 'UTC') : formatInSentence(piece.at, new Date(now))}
          </time>
        );
      })}
    </>
  );
}
