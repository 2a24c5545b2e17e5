import { alertAfterInput } from '../../../agent/contract/monitors';
import { WholeNumberField } from './Field';
import { fieldErrors, numberOrAbsent } from '../lib/formRules';

/* "Alert after N failures": its own field, and its own request (PUT /api/monitors/{id}/alert-after). */

/** The number typed, as the API takes it. */
export const alertAfterOf = (text: string): number | undefined => numberOrAbsent(text);

/** The field's refusal, in the API's own words ("The alert after field must be between 1 and 100."). */
export function alertAfterError(text: string): string | undefined {
  return fieldErrors(alertAfterInput, { alert_after: alertAfterOf(text) }).alert_after;
}

export function AlertAfterField(props: { value: string; error?: string; onChange: (value: string) => void }) {
  return (
    <WholeNumberField
      id="monitor-alert_after"
      label="Alert after N failures"
      error={props.error}
      hint="Failed or missed runs in a row before an alert is sent (1: at the first). The monitor shows failed from the first all the same."
      value={props.value}
      onChange={props.onChange}
    />
  );
}
