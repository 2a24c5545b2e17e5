import { useState } from 'react';
import { ApiError } from '../api/client';
import type { Certificate } from '../api/types';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { PageHeader } from '../components/Layout';
import { EmptyState, ErrorState, Loading, StaleBanner } from '../components/states';
import { StatusBadge } from '../components/StatusBadge';
import { AddCertificate } from './AddCertificate';
import { Time, ZoneHeading } from '../components/Time';
import { useApp } from '../lib/app-context';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import './Certificates.css';
import { describeError } from '../../../agent/domain/text/errorText';
import { hostLabel } from '../../../agent/domain/alerts/noticeWords';
import { daysExpired, daysLeft as daysLeftRule, withinWarning } from '../../../agent/domain/certificates/status';
import { useCanEdit } from '../lib/access';
import { useKeepFocus } from '../lib/use-keep-focus';

/**
 * Whole days until expiry (negative: days since it expired), or null when unknown; rounded as the
 * alerts round them, so the list never says 6 days beside an alert of 7.
 */
export function daysLeft(expiresAt: string | null, now = Date.now()): number | null {
  if (!expiresAt) return null;
  const at = Date.parse(expiresAt);
  return now > at ? -daysExpired(at, now) : daysLeftRule(at, now);
}

/** Whether the certificate is within its warning days (amber), by the rule that makes it `expiring`. */
export function inWarning(certificate: Pick<Certificate, 'expires_at' | 'warn_days'>, now = Date.now()): boolean {
  return certificate.expires_at !== null && withinWarning(Date.parse(certificate.expires_at), certificate.warn_days, now);
}

/** "example.com", or "example.com:8443" when the port is not 443 (two ports are two certificates): the alerts' own words. */
export const certificateLabel = hostLabel;

function DaysLeft(props: { certificate: Certificate }) {
  const days = daysLeft(props.certificate.expires_at);
  if (days === null) return <span className="muted">—</span>;
  if (days < 0) return <span className="text-bad">expired {-days} d ago</span>;
  return <span className={inWarning(props.certificate) ? 'text-warn' : undefined}>{days} d</span>;
}

export function CertificatesScreen() {
  const { api } = useApp();
  const certificates = useResource(queries.certificates(api));
  const [deleting, setDeleting] = useState<Certificate | null>(null);
  const [checking, setChecking] = useState<number | null>(null);
  // The row last checked keeps the ref, so its button gets the focus back once the check ends.
  const [lastChecked, setLastChecked] = useState<number | null>(null);
  const checkButton = useKeepFocus<HTMLButtonElement>(checking !== null);
  const [actionError, setActionError] = useState<string | null>(null);
  const canEdit = useCanEdit();

  async function checkNow(certificate: Certificate) {
    const { id } = certificate;
    setChecking(id);
    setLastChecked(id);
    setActionError(null);
    try {
      await api.checkCertificate(id);
      certificates.reload();
    } catch (error) {
      // Which one, and that it was not checked: the banner sits above the whole list.
      setActionError(`Could not check ${certificateLabel(certificate)}: ${describeError(error)}`);
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
        {canEdit ? <AddCertificate onAdded={certificates.reload} /> : null}
        {actionError ? (
          <div className="banner banner-error" role="alert">
            {actionError}
          </div>
        ) : null}
        {certificates.data.length === 0 ? (
          <EmptyState title="No certificates watched">{canEdit ? 'Add a hostname to be told before its TLS certificate expires or breaks.' : null}</EmptyState>
        ) : (
          <div className="table-wrap">
            <table className="table certificates-table">
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">Host</th>
                  <th scope="col" className="numeric">
                    Days left
                  </th>
                  {/* The viewer's clock, named as the Servers and Maintenance lists name it. */}
                  <th scope="col"><ZoneHeading label="Expires" /></th>
                  <th scope="col">Issuer</th>
                  <th scope="col">Checked</th>
                  {canEdit ? (
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  ) : null}
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
                        <span className="code">{certificateLabel(c)}</span>
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
                      {canEdit ? (
                        <td className="cell-actions">
                          <div className="row-actions">
                            <button ref={c.id === lastChecked ? checkButton : undefined} type="button" className="button button-small" disabled={checking === c.id} onClick={() => checkNow(c)}>
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
                          </div>
                        </td>
                      ) : null}
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
