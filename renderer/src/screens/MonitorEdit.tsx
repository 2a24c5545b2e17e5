import type { Monitor } from '../api/types';
import { PageHeader } from '../components/Layout';
import { MonitorForm } from '../components/MonitorForm';
import { EmptyState, ErrorState, Loading } from '../components/states';
import { useApp } from '../lib/app-context';
import { navigate } from '../lib/router';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import { periodNextRun } from '../lib/schedule';
import { kindOf } from '../../../agent/domain/schedules';

/** The create form, prefilled; saving keeps the token, so crontab lines that ping it keep working. */
export function MonitorEditScreen(props: { id: number }) {
  const { api } = useApp();
  // No live topics: a refresh while typing would not change the form anyway.
  const monitor = useResource(queries.monitor(api, props.id));
  const back = { href: `#/monitors/${props.id}`, label: monitor.data?.name ?? 'Monitor' };
  if (monitor.loading) return <Loading label="Loading monitor…" />;
  if (!monitor.data) {
    const notFound = (monitor.error as { status?: number } | undefined)?.status === 404;
    return (
      <>
        <PageHeader title="Edit monitor" back={back} />
        {notFound ? (
          <EmptyState title="This monitor does not exist">It may have been deleted.</EmptyState>
        ) : (
          <ErrorState error={monitor.error!} onRetry={monitor.reload} />
        )}
      </>
    );
  }
  const m = monitor.data;
  return (
    <>
      <PageHeader title={`Edit “${m.name}”`} back={back} subtitle="Its token and pulse URL stay the same." />
      <MonitorForm
        label="Edit monitor"
        initial={{
          name: m.name,
          timezone: m.timezone,
          schedule: m.schedule,
          duration: String(m.duration),
          tags: (m.tags ?? []).join(', '),
          max_runtime: m.max_runtime === undefined ? '' : String(m.max_runtime),
          alert_after: String(m.alert_after ?? 1),
        }}
        submitLabel="Save changes"
        busyLabel="Saving…"
        cancelHref={`#/monitors/${m.id}`}
        keptRun={keptRunOf(m)}
        onSave={async ({ maxRuntime, alertAfter, changed }) => {
          if (Object.keys(changed.monitor).length > 0) await api.editMonitor(m.id, changed.monitor);
          if (changed.maxRuntime) await api.setMaxRuntime(m.id, maxRuntime);
          if (changed.alertAfter) await api.setAlertAfter(m.id, alertAfter);
          navigate(`/monitors/${m.id}`);
        }}
      />
    </>
  );
}

/** A period's coming run as the agent counts it (from the last run), for the form's preview; none for other kinds. */
function keptRunOf(m: Monitor) {
  const at = kindOf(m.schedule) === 'period' ? periodNextRun(m, Date.now()) : undefined;
  return at ? { schedule: m.schedule, timezone: m.timezone, at } : undefined;
}
