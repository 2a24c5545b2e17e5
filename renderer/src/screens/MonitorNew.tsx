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
        initial={{ name: '', timezone: viewerZone(), schedule: '0 2 * * *', duration: '30', tags: '', max_runtime: '', alert_after: '1' }}
        submitLabel="Create monitor"
        busyLabel="Creating…"
        cancelHref="#/monitors"
        onSave={async ({ monitor: body, maxRuntime, alertAfter }) => {
          const monitor = await api.createMonitor(body);
          // Not fields of the spec's create body: their own requests, once the monitor exists.
          if (maxRuntime !== null) await api.setMaxRuntime(monitor.id, maxRuntime);
          if (alertAfter !== 1) await api.setAlertAfter(monitor.id, alertAfter);
          navigate(`/monitors/${monitor.id}`);
        }}
      />
    </>
  );
}
