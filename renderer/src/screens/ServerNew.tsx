import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { describedBy, Field } from '../components/Field';
import { PageHeader } from '../components/Layout';
import { useApp } from '../lib/app-context';
import { navigate } from '../lib/router';
import { validateIdentifier, validateIp, validateName } from '../lib/validate';

type FieldName = 'name' | 'identifier' | 'ip_address';

export function ServerNewScreen() {
  const { api } = useApp();
  const [values, setValues] = useState<Record<FieldName, string>>({ name: '', identifier: '', ip_address: '' });
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const clientErrors: Record<FieldName, string | undefined> = {
    name: validateName(values.name),
    identifier: validateIdentifier(values.identifier),
    ip_address: validateIp(values.ip_address),
  };
  const shown = (field: FieldName) => serverErrors[field] ?? (touched[field] ? clientErrors[field] : undefined);

  function set(field: FieldName, value: string) {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
    setServerErrors((e) => ({ ...e, [field]: undefined }));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched({ name: true, identifier: true, ip_address: true });
    const firstInvalid = (Object.keys(clientErrors) as FieldName[]).find((f) => clientErrors[f]);
    if (firstInvalid) {
      document.getElementById(`server-${firstInvalid}`)?.focus();
      return;
    }
    setBusy(true);
    setFormError(null);
    try {
      const server = await api.createServer({
        name: values.name.trim(),
        identifier: values.identifier.trim(),
        ip_address: values.ip_address.trim(),
      });
      navigate(`/servers/${server.id}`);
    } catch (error) {
      if (error instanceof ApiError && error.status === 422) {
        const next: Partial<Record<FieldName, string>> = {};
        for (const field of Object.keys(values) as FieldName[]) next[field] = error.fieldError(field);
        setServerErrors(next);
        if (!Object.values(next).some(Boolean)) setFormError(error.message);
      } else setFormError(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }

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
      <PageHeader title="Add server" back={{ href: '#/servers', label: 'Servers' }} />
      <form className="form card" onSubmit={submit} noValidate aria-label="Add server">
        {formError ? (
          <div className="banner banner-error" role="alert">
            {formError}
          </div>
        ) : null}
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
        <div className="form-actions">
          <a className="button" href="#/servers">
            Cancel
          </a>
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Adding…' : 'Add server'}
          </button>
        </div>
      </form>
    </>
  );
}
