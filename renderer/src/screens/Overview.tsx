import type { ReactNode } from 'react';
import { ApiError } from '../api/client';
import { PageHeader } from '../components/Layout';
import { EmptyState, ErrorState, Loading } from '../components/states';
import { underMaintenance, withMaintenance } from '../lib/maintenance';
import { monitorStatus } from '../components/StatusBadge';
import { useApp } from '../lib/app-context';
import { plural } from '../lib/format';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import { StatusBadge } from '../components/StatusBadge';
import { certificateLabel, daysLeft, inWarning } from './Certificates';
import { NotificationList, useToggleRead } from './Notifications';
import { reasonPiecesOf } from '../../../agent/domain/alerts/reasonPieces';
import { AlertReasonText } from '../components/AlertReasonText';
import { EditOnly } from '../components/ReadOnly';
import { viewerZone } from '../lib/schedule';

function Tile(props: { href: string; count: number | string; label: string; tone?: 'good' | 'bad' | 'warn' | 'busy'; testId?: string }) {
  return (
    <a className={`tile${props.tone ? ` tile-${props.tone}` : ''}`} href={props.href} data-testid={props.testId}>
      <span className="tile-count">{props.count}</span>
      <span className="tile-label">{props.label}</span>
    </a>
  );
}

function Panel(props: { title: string; href: string; linkLabel: string; children: ReactNode }) {
  return (
    <section className="card panel" aria-label={props.title}>
      <div className="panel-header">
        <h2>{props.title}</h2>
        <a href={props.href}>{props.linkLabel}</a>
      </div>
      {props.children}
    </section>
  );
}

/** Days left in the certificate list's colours: red once expired, amber while expiring. */
function CertificateDays(props: { days: number | null }) {
  const { days } = props;
  if (days === null) return null;
  if (days < 0) return <span className="text-bad">expired {plural(-days, 'day')} ago</span>;
  return <span className="text-warn">expires in {plural(days, 'day')}</span>;
}

export function OverviewScreen() {
  const { api } = useApp();
  const toggleRead = useToggleRead();
  const monitors = useResource(queries.monitors(api));
  const servers = useResource(queries.servers(api));
  const certificates = useResource(queries.certificates(api));
  const notifications = useResource(queries.notifications(api, 1, 5));
  const windows = useResource(queries.maintenanceWindows(api)).data;

  const counts = { failed: 0, running: 0, monitoring: 0, maintenance: 0, paused: 0, new: 0 };
  for (const m of monitors.data ?? []) {
    const status = withMaintenance(monitorStatus(m), underMaintenance(windows, m));
    if (status in counts) counts[status as keyof typeof counts]++;
  }
  const failed = (monitors.data ?? []).filter((m) => monitorStatus(m) === 'failed').sort((a, b) => a.name.localeCompare(b.name));
  const quietServers = (servers.data ?? []).filter((server) => server.quiet).length;
  const certificatesMissing = certificates.error instanceof ApiError && certificates.error.status === 404;
  const soon = (certificates.data ?? []).filter((c) => c.status !== 'valid' || inWarning(c));

  return (
    <>
      <PageHeader title="Overview" subtitle={`Times in your zone, ${viewerZone()} (UTC on hover)`} />
      <Panel title="Monitors" href="#/monitors" linkLabel="All monitors">
        {monitors.loading ? (
          <Loading />
        ) : !monitors.data ? (
          <ErrorState error={monitors.error!} onRetry={monitors.reload} />
        ) : monitors.data.length === 0 ? (
          <EmptyState title="No monitors yet" action={<EditOnly><a className="button button-primary" href="#/monitors/new">New monitor</a></EditOnly>}>
            A monitor expects a pulse from a scheduled job and tells you when one is late.
          </EmptyState>
        ) : (
          <>
            <div className="tiles">
              <Tile href="#/monitors?status=failed" count={counts.failed} label="Failed, missed or stuck" tone={counts.failed ? 'bad' : undefined} testId="tile-failed" />
              <Tile href="#/monitors?status=running" count={counts.running} label="Running" tone={counts.running ? 'busy' : undefined} />
              <Tile href="#/monitors?status=monitoring" count={counts.monitoring} label="Up" tone="good" testId="tile-up" />
              {/* Neither green nor red, and only when there are some: they are not watched yet, or not now. */}
              {counts.maintenance ? <Tile href="#/monitors?status=maintenance" count={counts.maintenance} label="In maintenance" testId="tile-maintenance" /> : null}
              {counts.paused ? <Tile href="#/monitors?status=paused" count={counts.paused} label="Paused" testId="tile-paused" /> : null}
              {counts.new ? <Tile href="#/monitors?status=new" count={counts.new} label="New" testId="tile-new" /> : null}
            </div>
            {failed.length ? (
              <ul className="failed-list" aria-label="Failed monitors">
                {failed.slice(0, 5).map((m) => (
                  <li key={m.id}>
                    <a href={`#/monitors/${m.id}`}>{m.name}</a>
                    <span className="muted"> · <AlertReasonText pieces={reasonPiecesOf(m.alert_reason_data)} text={m.alert_reason} fallback="No pulse in time" /></span>
                  </li>
                ))}
                {failed.length > 5 ? (
                  <li>
                    <a href="#/monitors?status=failed">and {failed.length - 5} more</a>
                  </li>
                ) : null}
              </ul>
            ) : null}
          </>
        )}
      </Panel>
      <div className="panel-grid">
        <Panel title="Servers" href="#/servers" linkLabel="All servers">
          {servers.loading ? (
            <Loading />
          ) : !servers.data ? (
            <ErrorState error={servers.error!} onRetry={servers.reload} />
          ) : servers.data.length === 0 ? (
            <EmptyState title="No servers yet" action={<EditOnly><a className="button button-primary" href="#/servers/new">Add server</a></EditOnly>}>
              <code>cronbeat crontab watch</code> on a server reports its changed cron lines here.
            </EmptyState>
          ) : (
            <div className="tiles">
              <Tile href="#/servers" count={servers.data.length} label={servers.data.length === 1 ? 'Server' : 'Servers'} />
              {quietServers ? <Tile href="#/servers" count={quietServers} label="Quiet (no report)" tone="warn" testId="tile-quiet" /> : null}
            </div>
          )}
        </Panel>
        <Panel title="Certificates" href="#/certificates" linkLabel="All certificates">
          {certificates.loading ? (
            <Loading />
          ) : certificatesMissing ? (
            <p className="muted">Not available in this agent.</p>
          ) : !certificates.data ? (
            <ErrorState error={certificates.error!} onRetry={certificates.reload} />
          ) : certificates.data.length === 0 ? (
            <EmptyState title="No certificates watched" action={<EditOnly><a className="button button-primary" href="#/certificates">Add certificate</a></EditOnly>}>
              Be told before a TLS certificate expires or breaks.
            </EmptyState>
          ) : soon.length === 0 ? (
            <p className="muted">All {plural(certificates.data.length, 'certificate')} fine.</p>
          ) : (
            <ul className="plain-list" aria-label="Certificates needing attention">
              {soon.map((c) => (
                <li key={c.id} data-testid="overview-certificate">
                  <StatusBadge status={c.status} />{' '}
                  <a href="#/certificates" className="code">
                    {certificateLabel(c)}
                  </a>{' '}
                  <CertificateDays days={daysLeft(c.expires_at)} />
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
      <Panel title="Latest notifications" href="#/notifications" linkLabel="All notifications">
        {notifications.loading ? (
          <Loading />
        ) : !notifications.data ? (
          <ErrorState error={notifications.error!} onRetry={notifications.reload} />
        ) : notifications.data.data.length === 0 ? (
          <p className="muted">Nothing has happened yet.</p>
        ) : (
          <NotificationList notifications={notifications.data.data} onRead={toggleRead} />
        )}
      </Panel>
    </>
  );
}
