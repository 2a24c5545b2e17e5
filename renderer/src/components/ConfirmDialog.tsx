import { useEffect, useRef, useState } from 'react';
import { describeError } from '../../../agent/domain/text/errorText';

/**
 * A modal confirmation built on <dialog>: focus moves into it, Escape cancels, and the
 * confirm button shows the API's error if the action fails.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  /** What the confirm button says while the agent works on it (default "Deleting…"). */
  busyLabel?: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) {
      setError(null);
      dialog.showModal();
    } else if (!props.open && dialog.open) dialog.close();
  }, [props.open]);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await props.onConfirm();
      props.onClose();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog ref={ref} className="dialog" aria-labelledby="confirm-title" onClose={props.onClose}>
      <h2 id="confirm-title">{props.title}</h2>
      <p>{props.message}</p>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={props.onClose} autoFocus>
          Cancel
        </button>
        <button type="button" className="button button-danger" onClick={confirm} disabled={busy}>
          {busy ? (props.busyLabel ?? 'Deleting…') : props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
