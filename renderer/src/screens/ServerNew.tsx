import { PageHeader } from '../components/Layout';
import { ServerForm } from '../components/ServerForm';
import { useApp } from '../lib/app-context';
import { navigate } from '../lib/router';

export function ServerNewScreen() {
  const { api } = useApp();
  return (
    <>
      <PageHeader title="Add server" back={{ href: '#/servers', label: 'Servers' }} />
      <ServerForm
        label="Add server"
        initial={{ name: '', identifier: '', ip_address: '' }}
        submitLabel="Add server"
        busyLabel="Adding…"
        cancelHref="#/servers"
        onSave={async (body) => {
          const server = await api.createServer(body);
          navigate(`/servers/${server.id}`);
        }}
      />
    </>
  );
}
