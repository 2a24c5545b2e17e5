import { PageHeader } from '../components/Layout';
import { EmptyState, ErrorState, Loading, StaleBanner } from '../components/states';
import { LastReport } from '../components/LastReport';
import { Time, ZoneHeading } from '../components/Time';
import { useApp } from '../lib/app-context';
import { navigate } from '../lib/router';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import { EditOnly } from '../components/ReadOnly';

export function ServersScreen() {
  const { api } = useApp();
  const servers = useResource(queries.servers(api));
  const addButton = (
    <EditOnly>
      <a className="button button-primary" href="#/servers/new">
        Add server
      </a>
    </EditOnly>
  );
  let body;
  if (servers.loading) body = <Loading label="Loading servers…" />;
  else if (!servers.data) body = <ErrorState error={servers.error!} onRetry={servers.reload} />;
  else if (servers.data.length === 0)
    body = (
      <EmptyState title="No servers yet" action={addButton}>
        Add the machines that run your jobs; <code>cronbeat crontab watch</code> on each one reports changed crontab lines here.
      </EmptyState>
    );
  else
    body = (
      <>
        <StaleBanner error={servers.error} onRetry={servers.reload} />
        {servers.data.some((server) => server.quiet) ? (
          <div className="banner banner-warning" role="status" data-testid="quiet-servers">
            {servers.data.filter((server) => server.quiet).map((server) => server.name).join(', ')}: no report from{' '}
            <code>cronbeat crontab watch</code> lately. Check that it still runs there and can reach Cronbeat.
          </div>
        ) : null}
        <div className="table-wrap">
          <table className="table table-clickable">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Identifier</th>
                <th scope="col">IP address</th>
                <th scope="col">Last report</th>
                <th scope="col"><ZoneHeading label="Added" /></th>
              </tr>
            </thead>
            <tbody>
              {[...servers.data]
                .sort((a, b) => a.name.localeCompare(b.name))
                .map((server) => (
                  <tr key={server.id} onClick={() => navigate(`/servers/${server.id}`)}>
                    <td className="cell-name">
                      <a href={`#/servers/${server.id}`} onClick={(e) => e.stopPropagation()}>
                        {server.name}
                      </a>
                    </td>
                    <td className="code">{server.identifier}</td>
                    <td className="code">{server.ip_address}</td>
                    <td>
                      <LastReport server={server} />
                    </td>
                    <td>
                      <Time value={server.created_at} />
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </>
    );
  return (
    <>
      <PageHeader title="Servers" actions={addButton} />
      {body}
    </>
  );
}
