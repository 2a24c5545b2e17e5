import type { AlertReason } from '../../../agent/domain/alert';
import { isMonitorReason, reasonPieces } from '../../../agent/domain/alertReason';
import { formatInSentence, utcTitle } from '../lib/format';
import { useNow } from '../lib/now';

/**
 * Why a monitor failed, from its reason as data (agent/domain/alert.ts): the agent's words
 * (reasonPieces, the same the API's alert_reason is made of) with each moment in the viewer's
 * zone and UTC on hover. Without data (a failure from before reasons were kept as data, or a
 * notice of another kind) the stored `text` is shown as it is: nothing is read back out of words.
 */
export function AlertReasonText(props: { reason: AlertReason | null | undefined; text: string | null | undefined; fallback?: string }) {
  const now = useNow();
  if (!isMonitorReason(props.reason)) return <>{props.text || props.fallback || ''}</>;
  return (
    <>
      {reasonPieces(props.reason).map((piece, index) => {
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
