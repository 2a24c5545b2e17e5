import { useState, type FormEvent } from 'react';
import { ApiError } from '../api/client';
import type { Certificate } from '../api/types';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { describedBy, Field } from '../components/Field';
import { PageHeader } from '../components/Layout';
import { EmptyState, ErrorState, Loading, StaleBanner } from '../components/states';
import { StatusBadge } from '../components/StatusBadge';
import { Time } from '../components/Time';
import { useApp } from '../lib/app-context';
import { useResource } from '../lib/use-resource';

/** Whole days until expiry (negative once expired), or null when unknown. */
export function daysLeft(expiresAt: string | null, now = Date.now()): number | null {
  if (!expiresAt) return null;
  return Math.floor((new Date(expiresAt).getTime() - now) / 86_400_000);
}

function DaysLeft(props: { certificate: Certificate }) {
  const days = daysLeft(props.certificate.expires_at);
  if (days === null) return <span className="muted">—</span>;
  if (days < 0) return <span className="text-bad">expired {-days} d ago</span>;
  return <span className={days < props.certificate.warn_days ? 'text-warn' : undefined}>{days} d</span>;
}

export function CertificatesScreen() {
  const { api } = useApp();
  const certificates = useResource((signal) => api.certificates(signal), 'certificates', ['certificate.changed']);
  const [deleting, setDeleting] = useState<Certificate | null>(null);
  const [checking, setChecking] = useState<number | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  async function checkNow(id: number) {
    setChecking(id);
    setActionError(null);
    try {
      await api.checkCertificate(id);
      certificates.reload();
    } catch (error) {
      setActionError(error instanceof Error ? error.message : String(error));
    } finally {
      setChecking(null);
    }
  }

  let body;
  if (certificates.loading) body = <Loading label="Loading certificates…" />;
  else if (!certificates.data) {
    body =
      certificates.error instanceof ApiError && certificates.error.status === 404 ? (
        <EmptyState title="Not available">This agent does not check certificates yet.</EmptyState>
      ) : (
        <ErrorState error={certificates.error!} onRetry={certificates.reload} />
      );
  } else
    body = (
      <>
        <StaleBanner error={certificates.error} onRetry={certificates.reload} />
        <AddCertificate onAdded={certificates.reload} />
        {actionError ? (
          <div className="banner banner-error" role="alert">
            {actionError}
          </div>
        ) : null}
        {certificates.data.length === 0 ? (
          <EmptyState title="No certificates watched">Add a hostname to be told before its TLS certificate expires or breaks.</EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">Host</th>
                  <th scope="col" className="numeric">
                    Days left
                  </th>
                  <th scope="col">Expires</th>
                  <th scope="col">Issuer</th>
                  <th scope="col">Checked</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...certificates.data]
                  .sort((a, b) => a.hostname.localeCompare(b.hostname))
                  .map((c) => (
                    <tr key={c.id}>
                      <td>
                        <StatusBadge status={c.status} />
                      </td>
                      <td className="cell-name">
                        <span className="code">
                          {c.hostname}
                          {c.port === 443 ? '' : `:${c.port}`}
                        </span>
                        {c.last_error ? <div className="cell-sub text-bad">{c.last_error}</div> : null}
                      </td>
                      <td className="numeric">
                        <DaysLeft certificate={c} />
                      </td>
                      <td>
                        <Time value={c.expires_at} />
                      </td>
                      <td className="cell-issuer">{c.issuer ?? <span className="muted">—</span>}</td>
                      <td>
                        <Time value={c.last_checked_at} relative past empty="Not yet" />
                      </td>
                      <td className="cell-actions">
                        <button type="button" className="button button-small" disabled={checking === c.id} onClick={() => checkNow(c.id)}>
                          {checking === c.id ? 'Checking…' : 'Check now'}
                        </button>
                        <button
                          type="button"
                          className="button button-small button-danger-quiet"
                          aria-label={`Delete ${c.hostname}`}
                          onClick={() => setDeleting(c)}
                        >
                          Delete
                        </button>
                      </td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </div>
        )}
      </>
    );

  return (
    <>
      <PageHeader title="Certificates" subtitle="TLS certificates checked every 6 hours" />
      {body}
      <ConfirmDialog
        open={deleting !== null}
        title={`Stop watching ${deleting?.hostname ?? ''}?`}
        message="It leaves the list and is no longer checked. Notifications about it stay."
        confirmLabel="Delete certificate"
        onConfirm={async () => {
          await api.deleteCertificate(deleting!.id);
          certificates.reload();
        }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

function AddCertificate(props: { onAdded: () => void }) {
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
