import { useState, type FormEvent } from 'react';
import type { NewServer } from '../api/endpoints';
import { describedBy, Field } from './Field';
import { FormActions, FormError } from './FormParts';
import { useApiForm } from '../lib/use-api-form';
import { serverInput } from '../../../agent/contract/servers';
import { changedFields, fieldErrors } from '../lib/formRules';

type FieldName = 'name' | 'identifier' | 'ip_address';

/** The body the form sends, checked as you type by the API's own schema. */
const serverBody = (v: Record<FieldName, string>): NewServer => ({ name: v.name.trim(), identifier: v.identifier.trim(), ip_address: v.ip_address.trim() });

/** The form's refusals: the API's own. */
export const serverFormErrors = (v: Record<FieldName, string>) => fieldErrors(serverInput, serverBody(v));

/** A server's fields with their checks as you type; Add server starts it empty, Edit with the server's values. */
export function ServerForm(props: {
  label: string;
  initial: Record<FieldName, string>;
  submitLabel: string;
  busyLabel: string;
  cancelHref: string;
  /** `changed`: what was changed in the form since it opened, all an edit sends (the server may have changed elsewhere meanwhile). */
  onSave: (server: NewServer, changed: Partial<NewServer>) => Promise<void>;
}) {
  const [opened] = useState(props.initial);
  const { values, set, shown, formError, busy, submit } = useApiForm<FieldName>({
    idPrefix: 'server',
    initial: opened,
    validate: serverFormErrors,
  });

  const onSubmit = (event: FormEvent) => submit(event, (v) => props.onSave(serverBody(v), changedFields(serverBody(opened), serverBody(v))));

  const input = (field: FieldName, props: { placeholder: string; hint: boolean; autoFocus?: boolean; code?: boolean }) => (
    <input
      id={`server-${field}`}
      className={props.code ? 'code' : undefined}
      value={values[field]}
      onChange={(e) => set(field, e.target.value)}
      placeholder={props.placeholder}
      autoFocus={props.autoFocus}
      spellCheck={false}
      autoComplete="off"
      aria-invalid={Boolean(shown(field))}
      aria-describedby={describedBy(`server-${field}`, props.hint, shown(field))}
    />
  );

  return (
    <>
      <form className="form card" onSubmit={onSubmit} noValidate aria-label={props.label}>
        <FormError message={formError} />
        <Field id="server-name" label="Name" error={shown('name')}>
          {input('name', { placeholder: 'Backup host', hint: false, autoFocus: true })}
        </Field>
        <div className="form-row">
          <Field
            id="server-identifier"
            label="Identifier"
            error={shown('identifier')}
            hint={
              <>
                What <code>cronbeat crontab watch --server …</code> on that machine reports, e.g. its hostname.
              </>
            }
          >
            {input('identifier', { placeholder: 'backup-01', hint: true, code: true })}
          </Field>
          <Field id="server-ip_address" label="IP address" error={shown('ip_address')} hint="IPv4 or IPv6.">
            {input('ip_address', { placeholder: '192.0.2.10', hint: true, code: true })}
          </Field>
        </div>
        <FormActions cancelHref={props.cancelHref} busy={busy} submitLabel={props.submitLabel} busyLabel={props.busyLabel} />
      </form>
    </>
  );
}
