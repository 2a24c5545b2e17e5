import { useRef } from 'react';
import type { NewMonitor } from '../api/endpoints';
import { PageHeader } from '../components/Layout';
import { changedFields } from '../lib/formRules';
import { MonitorForm } from '../components/MonitorForm';
import { useApp } from '../lib/app-context';
import { navigate } from '../lib/router';
import { viewerZone } from '../lib/schedule';

export function MonitorNewScreen() {
  const { api } = useApp();
  const made = useRef<{ id: number; body: NewMonitor } | null>(null);
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
          // Made by an earlier try whose max run time or alert-after did not get through: sending
          // the form again finishes that monitor (with what the form says now), never makes a second.
          const retry = made.current !== null;
          if (!made.current) made.current = { id: (await api.createMonitor(body)).id, body };
          else {
            const changed = changedFields(made.current.body, body);
            if (Object.keys(changed).length > 0) await api.editMonitor(made.current.id, changed);
            made.current.body = body;
          }
          const { id } = made.current;
          // Not fields of the spec's create body: their own requests, once the monitor exists.
          if (maxRuntime !== null || retry) await api.setMaxRuntime(id, maxRuntime);
          if (alertAfter !== 1 || retry) await api.setAlertAfter(id, alertAfter);
          navigate(`/monitors/${id}`);
        }}
      />
    </>
  );
}
