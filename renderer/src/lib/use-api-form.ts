import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { describeError } from '../../../agent/domain/text/errorText';

type Errors<F extends string> = Partial<Record<F, string | undefined>>;

/**
 * A form that creates something through the API: its values, the checks shown as you type (once
 * a field was touched), the API's 422 messages next to their fields, and one form-level error for
 * anything else. Inputs carry the id `${idPrefix}-${field}`, so submit can focus the first wrong one.
 */
export function useApiForm<F extends string>(options: {
  idPrefix: string;
  initial: Record<F, string>;
  validate: (values: Record<F, string>) => Record<F, string | undefined>;
}) {
  const fields = Object.keys(options.initial) as F[];
  const [values, setValues] = useState(options.initial);
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Errors<F>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const clientErrors = options.validate(values);

  /** The message to show under a field: the API's, else the client check once touched. */
  const shown = (field: F) => serverErrors[field] ?? (touched[field] ? clientErrors[field] : undefined);

  function set(field: F, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
    setServerErrors((e) => ({ ...e, [field]: undefined }));
  }

  /** Back to the initial values, nothing touched, no errors (after a form that stays on screen succeeds). */
  function reset() {
    setValues(options.initial);
    setTouched({});
    setServerErrors({});
    setFormError(null);
  }

  /** Checks every field, then runs `send`; a 422 lands next to the fields it names. */
  async function submit(event: FormEvent, send: (values: Record<F, string>) => Promise<void>) {
    event.preventDefault();
    setTouched(Object.fromEntries(fields.map((f) => [f, true])) as Record<F, boolean>);
    const invalid = fields.filter((f) => clientErrors[f]);
    if (invalid.length > 0) {
      // The first wrong field as the screen shows them, not as the values happen to be listed.
      const controls = invalid.map((f) => document.getElementById(`${options.idPrefix}-${f}`)).filter((c) => c !== null);
      controls.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
      controls[0]?.focus();
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      await send(values);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        const next: Errors<F> = {};
        for (const field of fields) next[field] = error.fieldError(field);
        setServerErrors(next);
        if (!Object.values(next).some(Boolean)) setFormError(error.message);
      } else {
        // Anything else (the agent away, a 5xx, gone meanwhile) failed the whole form: say it was not
        // saved, which stays true after the agent is back; the fields keep what was typed.
        setFormError(`Not saved: ${describeError(error)}`);
      }
    } finally {
      setBusy(false);
    }
  }

  return { values, set, shown, clientErrors, formError, busy, submit, reset };
}
