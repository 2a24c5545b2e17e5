import { PageHeader } from '../components/Layout';
import { MonitorForm } from '../components/MonitorForm';
import { useApp } from '../lib/app-context';
import { navigate } from '../lib/router';
import { viewerZone } from '../lib/schedule';

export function MonitorNewScreen() {
  const { api } = useApp();
  return (
    <>
      <PageHeader title="New monitor" back={{ href: '#/monitors', label: 'Monitors' }} />
      <MonitorForm
        label="New monitor"
        initial={{ name: '', timezone: viewerZone(), schedule: '0 2 * * *', duration: '30', tags: '', max_runtime: '' }}
        submitLabel="Create monitor"
        busyLabel="Creating…"
        cancelHref="#/monitors"
        onSave={async (body, maxRuntime) => {
          const monitor = await api.createMonitor(body);
          // Not a field of the spec's create body: its own request, once the monitor exists.
          if (maxRuntime !== null) await api.setMaxRuntime(monitor.id, maxRuntime);
          navigate(`/monitors/${monitor.id}`);
        }}
      />
    </>
  );
}
