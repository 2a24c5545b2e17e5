import type { FormEvent } from 'react';
import { describedBy, Field } from '../components/Field';
import { useApp } from '../lib/app-context';
import { useApiForm } from '../lib/use-api-form';
import { certificateInput } from '../../../agent/contract/certificates';
import { fieldErrors, numberOrAbsent } from '../lib/formRules';

type FieldName = 'hostname' | 'port' | 'warn_days';

/** What a user may paste as a certificate's host: a bare name, or a URL whose host is taken. */
const hostOf = (input: string) => input.trim().replace(/^https?:\/\//, '').replace(/\/.*$/, '');

/** The body the form sends, checked as you type by the API's own schema (an empty port or warning is its default). */
const certificateBody = (v: Record<FieldName, string>) => ({ hostname: hostOf(v.hostname), port: numberOrAbsent(v.port), warn_days: numberOrAbsent(v.warn_days) });

/** Adds a hostname to watch; the agent checks it at once, so this may take a few seconds. */
export function AddCertificate(props: { onAdded: () => void }) {
  const { api } = useApp();
  const { values, set, shown, formError, busy, submit, reset } = useApiForm<FieldName>({
    idPrefix: 'cert',
    initial: { hostname: '', port: '443', warn_days: '14' },
    validate: (v) => fieldErrors(certificateInput, certificateBody(v)),
  });

  const onSubmit = (event: FormEvent) =>
    submit(event, async (v) => {
      await api.createCertificate(certificateBody(v));
      reset();
      props.onAdded();
    });

  // Text fields (numeric keyboard): type="number" gives "" for what it cannot read, and an empty port is 443.
  const input = (field: FieldName, attributes: { inputMode?: 'numeric'; placeholder?: string }) => (
    <input
      id={`cert-${field}`}
      {...attributes}
      value={values[field]}
      onChange={(e) => set(field, e.target.value)}
      spellCheck={false}
      autoComplete="off"
      aria-invalid={Boolean(shown(field))}
      aria-describedby={describedBy(`cert-${field}`, false, shown(field))}
    />
  );

  return (
    <form className="inline-form card" onSubmit={onSubmit} noValidate aria-label="Add certificate">
      <Field id="cert-hostname" label="Hostname" error={shown('hostname')}>
        {input('hostname', { placeholder: 'example.com' })}
      </Field>
      <Field id="cert-port" label="Port" error={shown('port')}>
        {input('port', { inputMode: 'numeric' })}
      </Field>
      <Field id="cert-warn_days" label="Warn (days left)" error={shown('warn_days')}>
        {input('warn_days', { inputMode: 'numeric' })}
      </Field>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Checking…' : 'Add'}
      </button>
      {formError ? (
        <div className="field-error" role="alert">
          {formError}
        </div>
      ) : null}
    </form>
  );
}
