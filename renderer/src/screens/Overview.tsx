import type { ReactNode } from 'react';
import { ApiError } from '../api/client';
import { PageHeader } from '../components/Layout';
import { EmptyState, ErrorState, Loading } from '../components/states';
import { monitorStatus } from '../components/StatusBadge';
import { useApp } from '../lib/app-context';
import { plural } from '../lib/format';
import { useResource } from '../lib/use-resource';
import { daysLeft } from './Certificates';
import { NotificationList, useToggleRead } from './Notifications';

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

export function OverviewScreen() {
  const { api } = useApp();
  const toggleRead = useToggleRead();
  const monitors = useResource((s) => api.monitors(s), 'overview-monitors', ['monitor.changed']);
  const servers = useResource((s) => api.servers(s), 'overview-servers', ['server.changed']);
  const certificates = useResource((s) => api.certificates(s), 'overview-certificates', ['certificate.changed']);
  const notifications = useResource((s) => api.notifications(1, 5, s), 'overview-notifications', ['notification.created', 'notification.read']);

  const counts = { failed: 0, running: 0, monitoring: 0 };
  for (const m of monitors.data ?? []) {
    const status = monitorStatus(m);
    if (status in counts) counts[status as keyof typeof counts]++;
  }
  const failed = (monitors.data ?? []).filter((m) => monitorStatus(m) === 'failed').sort((a, b) => a.name.localeCompare(b.name));
  const certificatesMissing = certificates.error instanceof ApiError && certificates.error.status === 404;
  const soon = (certificates.data ?? []).filter((c) => {
    const days = daysLeft(c.expires_at);
    return c.status !== 'valid' || (days !== null && days < c.warn_days);
  });

  return (
    <>
      <PageHeader title="Overview" />
      <Panel title="Monitors" href="#/monitors" linkLabel="All monitors">
        {monitors.loading ? (
          <Loading />
        ) : !monitors.data ? (
          <ErrorState error={monitors.error!} onRetry={monitors.reload} />
        ) : monitors.data.length === 0 ? (
          <EmptyState title="No monitors yet" action={<a className="button button-primary" href="#/monitors/new">New monitor</a>} />
        ) : (
          <>
            <div className="tiles">
              <Tile href="#/monitors?status=failed" count={counts.failed} label="Failed" tone={counts.failed ? 'bad' : undefined} testId="tile-failed" />
              <Tile href="#/monitors?status=running" count={counts.running} label="Running" tone={counts.running ? 'busy' : undefined} />
              <Tile href="#/monitors?status=monitoring" count={counts.monitoring} label="Up" tone="good" testId="tile-up" />
            </div>
            {failed.length ? (
              <ul className="failed-list" aria-label="Failed monitors">
                {failed.slice(0, 5).map((m) => (
                  <li key={m.id}>
                    <a href={`#/monitors/${m.id}`}>{m.name}</a>
                    <span className="muted"> · {m.alert_reason || 'No pulse in time'}</span>
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
          ) : (
            <div className="tiles">
              <Tile href="#/servers" count={servers.data.length} label={servers.data.length === 1 ? 'Server' : 'Servers'} />
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
          ) : soon.length === 0 ? (
            <p className="muted">{certificates.data.length ? `All ${plural(certificates.data.length, 'certificate')} fine.` : 'None watched yet.'}</p>
          ) : (
            <ul className="plain-list">
              {soon.map((c) => (
                <li key={c.id}>
                  <a href="#/certificates" className="code">
                    {c.hostname}
                  </a>{' '}
                  <span className="text-warn">
                    {c.status !== 'valid' ? c.status : `expires in ${plural(daysLeft(c.expires_at) ?? 0, 'day')}`}
                  </span>
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
