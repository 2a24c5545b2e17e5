import type { Alert } from '../../../agent/domain/alerts/alert';
import { OUTPUT_BOUNDS } from '../../../agent/domain/alerts/messageLimits';
import { lastLines } from '../../../agent/domain/alerts/words';
import { alertPieces } from '../../../agent/domain/alerts/reasonPieces';
import { AlertReasonText } from './AlertReasonText';

/**
 * A notification's description (a failure's or a recovery's from its alert as data, times in the viewer's zone), then, from its alert as data,
 * the last lines the job said: what an admin needs without opening the run history.
 */
export function AlertDescription(props: { alert?: Alert | null; description: string }) {
  const output = lastLines(props.alert?.run?.output_tail ?? null, OUTPUT_BOUNDS.chat.lines, OUTPUT_BOUNDS.chat.chars);
  return (
    <>
      <AlertReasonText pieces={alertPieces(props.alert)} text={props.description} />
      {output.length ? (
        <pre className="alert-output" aria-label="Last output">
          {output.join('\n')}
        </pre>
      ) : null}
    </>
  );
}
