import { useState } from 'react';
import { ChannelPicker } from '../components/ChannelPicker';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { LastReport } from '../components/LastReport';
import { PageHeader } from '../components/Layout';
import { EmptyState, ErrorState, Loading, StaleBanner } from '../components/states';
import { Time, ZoneHeading } from '../components/Time';
import { useApp } from '../lib/app-context';
import { navigate } from '../lib/router';
import { deleteHere } from '../lib/deletingHere';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import type { ServerAlert } from '../api/types';
import { WatchCrontabs } from './WatchCrontabs';
import { ServerWatchers } from './ServerWatchers';
import { EditOnly } from '../components/ReadOnly';

/** Removing a job is the change most likely to mean a backup stopped. */
const CHANGE_TONE: Record<ServerAlert['change'], string> = { added: 'badge-busy', removed: 'badge-bad', altered: 'badge-warn' };

export function ServerDetailScreen(props: { id: number }) {
  const { api } = useApp();
  const server = useResource(queries.server(api, props.id));
  const [confirming, setConfirming] = useState(false);

  if (server.loading) return <Loading label="Loading server…" />;
  // A 404 after the page was drawn: deleted elsewhere (another tab, a script), so its old data is no use.
  const notFound = (server.error as { status?: number } | undefined)?.status === 404;
  if (!server.data || notFound) {
    return (
      <>
        <PageHeader title="Server" back={{ href: '#/servers', label: 'Servers' }} />
        {notFound ? (
          <EmptyState title="This server does not exist" action={<a className="button" href="#/servers">All servers</a>}>
            It may have been deleted.
          </EmptyState>
        ) : (
          <ErrorState error={server.error!} onRetry={server.reload} />
        )}
      </>
    );
  }
  const s = server.data;
  return (
    <>
      <PageHeader
        title={s.name}
        subtitle={
          <>
            <span className="code">
              {s.identifier} · {s.ip_address}
            </span>{' '}
            · last report: <LastReport server={s} />
          </>
        }
        back={{ href: '#/servers', label: 'Servers' }}
        actions={
          <EditOnly>
            <a className="button" href={`#/servers/${s.id}/edit`}>
              Edit
            </a>
            <button type="button" className="button button-danger-quiet" onClick={() => setConfirming(true)}>
              Delete…
            </button>
          </EditOnly>
        }
      />
      <StaleBanner error={server.error} onRetry={server.reload} />
      <WatchCrontabs identifier={s.identifier} />
      <ServerWatchers serverId={s.id} />
      <Alerts serverId={s.id} />
      <ChannelPicker path="servers" id={s.id} what="server" />
      <ConfirmDialog
        open={confirming}
        title={`Delete “${s.name}”?`}
        message="It leaves the list and its alerts stop being accepted. Notifications about it stay."
        confirmLabel="Delete server"
        onConfirm={async () => {
          await deleteHere('server', s.id, () => api.deleteServer(s.id));
          navigate('/servers');
        }}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}

function Alerts(props: { serverId: number }) {
  const { api } = useApp();
  const alerts = useResource(queries.serverAlerts(api, props.serverId));
  let body;
  if (alerts.loading) body = <Loading label="Loading alerts…" />;
  else if (!alerts.data) body = <ErrorState error={alerts.error!} onRetry={alerts.reload} />;
  else if (alerts.data.length === 0) body = <EmptyState title="No alerts received">Changed crontab lines reported for this server appear here.</EmptyState>;
  else
    body = (
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th scope="col"><ZoneHeading label="Received" /></th>
              <th scope="col">Change</th>
              <th scope="col">User</th>
              <th scope="col">Command</th>
            </tr>
          </thead>
          <tbody>
            {[...alerts.data]
              .sort((a, b) => b.created_at.localeCompare(a.created_at))
              .map((alert) => (
                <tr key={alert.id}>
                  <td>
                    <Time value={alert.created_at} />
                  </td>
                  <td>
                    <span className={`badge ${CHANGE_TONE[alert.change]}`}>{alert.change}</span>
                  </td>
                  <td className="code">{alert.username}</td>
                  <td className="code cell-command">
                    {alert.command}
                    {alert.previous_command && <div className="muted">was: {alert.previous_command}</div>}
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
    );
  return (
    <section className="card" aria-labelledby="alerts-title">
      <h2 id="alerts-title">Alerts</h2>
      {body}
    </section>
  );
}
