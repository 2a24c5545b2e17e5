import { PageHeader } from '../components/Layout';
import { ServerForm } from '../components/ServerForm';
import { EmptyState, ErrorState, Loading } from '../components/states';
import { useApp } from '../lib/app-context';
import { navigate } from '../lib/router';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';

/** The add form, prefilled. A new identifier must then be the one its watcher reports. */
export function ServerEditScreen(props: { id: number }) {
  const { api } = useApp();
  const server = useResource(queries.server(api, props.id));
  const back = { href: `#/servers/${props.id}`, label: server.data?.name ?? 'Server' };
  if (server.loading) return <Loading label="Loading server…" />;
  if (!server.data) {
    const notFound = (server.error as { status?: number } | undefined)?.status === 404;
    return (
      <>
        <PageHeader title="Edit server" back={back} />
        {notFound ? (
          <EmptyState title="This server does not exist">It may have been deleted.</EmptyState>
        ) : (
          <ErrorState error={server.error!} onRetry={server.reload} />
        )}
      </>
    );
  }
  const s = server.data;
  return (
    <>
      <PageHeader title={`Edit “${s.name}”`} back={back} />
      <ServerForm
        label="Edit server"
        initial={{ name: s.name, identifier: s.identifier, ip_address: s.ip_address }}
        submitLabel="Save changes"
        busyLabel="Saving…"
        cancelHref={`#/servers/${s.id}`}
        onSave={async (_server, changed) => {
          if (Object.keys(changed).length > 0) await api.editServer(s.id, changed);
          navigate(`/servers/${s.id}`);
        }}
      />
    </>
  );
}
