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
        initial={{ name: '', timezone: viewerZone(), schedule: '0 2 * * *', duration: '30', tags: '', alert_after: '1' }}
        submitLabel="Create monitor"
        busyLabel="Creating…"
        cancelHref="#/monitors"
        onSave={async (body, alertAfter) => {
          const monitor = await api.createMonitor(body);
          if (alertAfter !== 1) await api.setAlertAfter(monitor.id, alertAfter);
          navigate(`/monitors/${monitor.id}`);
        }}
      />
    </>
  );
}
