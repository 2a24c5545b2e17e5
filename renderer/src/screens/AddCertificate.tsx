import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import { describedBy, Field } from '../components/Field';
import { useApp } from '../lib/app-context';

/** Adds a hostname to watch; the agent checks it at once, so this may take a few seconds. */
export function AddCertificate(props: { onAdded: () => void }) {
  const { api } = useApp();
  const [hostname, setHostname] = useState('');
  const [port, setPort] = useState('443');
  const [warnDays, setWarnDays] = useState('14');
  const [errors, setErrors] = useState<{ hostname?: string; port?: string; warn_days?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const host = hostname.trim().replace(/^https?:\/\//, '').replace(/\/.*$/, '');
    const portNumber = Number(port);
    const next: typeof errors = {};
    if (!host) next.hostname = 'Enter a hostname, e.g. example.com';
    if (!Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535) next.port = 'A port from 1 to 65535.';
    const warn = Number(warnDays);
    if (!Number.isInteger(warn) || warn < 1 || warn > 365) next.warn_days = 'From 1 to 365 days.';
    setErrors(next);
    if (next.hostname || next.port || next.warn_days) return;
    setBusy(true);
    try {
      await api.createCertificate({ hostname: host, port: portNumber, warn_days: warn });
      setHostname('');
      setPort('443');
      setWarnDays('14');
      props.onAdded();
    } catch (error) {
      if (error instanceof ApiError && error.status === 422)
        setErrors({
          hostname: error.fieldError('hostname'),
          port: error.fieldError('port'),
          warn_days: error.fieldError('warn_days'),
          form: ['hostname', 'port', 'warn_days'].some((f) => error.fieldError(f)) ? undefined : error.message,
        });
      else setErrors({ form: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="inline-form card" onSubmit={submit} noValidate aria-label="Add certificate">
      <Field id="cert-hostname" label="Hostname" error={errors.hostname}>
        <input
          id="cert-hostname"
          value={hostname}
          onChange={(e) => setHostname(e.target.value)}
          placeholder="example.com"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={Boolean(errors.hostname)}
          aria-describedby={describedBy('cert-hostname', false, errors.hostname)}
        />
      </Field>
      <Field id="cert-port" label="Port" error={errors.port}>
        <input
          id="cert-port"
          type="number"
          min={1}
          max={65535}
          value={port}
          onChange={(e) => setPort(e.target.value)}
          aria-invalid={Boolean(errors.port)}
          aria-describedby={describedBy('cert-port', false, errors.port)}
        />
      </Field>
      <Field id="cert-warn" label="Warn (days left)" error={errors.warn_days}>
        <input
          id="cert-warn"
          type="number"
          min={1}
          max={365}
          value={warnDays}
          onChange={(e) => setWarnDays(e.target.value)}
          aria-invalid={Boolean(errors.warn_days)}
          aria-describedby={describedBy('cert-warn', false, errors.warn_days)}
        />
      </Field>
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Checking…' : 'Add'}
      </button>
      {errors.form ? (
        <div className="field-error" role="alert">
          {errors.form}
        </div>
      ) : null}
    </form>
  );
}
