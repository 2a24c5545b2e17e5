/* The parts every edit form of the dashboard ends and starts with. */

/** The form's own error (one not about a field), or nothing. */
export function FormError(props: { message: string | null | undefined }) {
  if (!props.message) return null;
  return (
    <div className="banner banner-error" role="alert">
      {props.message}
    </div>
  );
}

/** Cancel (a link back) and the submit button, which says what it is doing while busy. */
export function FormActions(props: { cancelHref: string; busy: boolean; submitLabel: string; busyLabel: string }) {
  return (
    <div className="form-actions">
      <a className="button" href={props.cancelHref}>
        Cancel
      </a>
      <button type="submit" className="button button-primary" disabled={props.busy}>
        {props.busy ? props.busyLabel : props.submitLabel}
      </button>
    </div>
  );
}
