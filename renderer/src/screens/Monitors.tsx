import { useEffect, useMemo, useState } from 'react';
import type { Monitor } from '../api/types';
import { PageHeader } from '../components/Layout';
import { EmptyState, ErrorState, Loading, StaleBanner } from '../components/states';
import { monitorStatus, StatusBadge, type DisplayStatus } from '../components/StatusBadge';
import { LastDuration } from '../components/LastDuration';
import { useApp } from '../lib/app-context';
import { navigate } from '../lib/router';
import { scheduleInWords } from '../lib/schedule';
import { useResource } from '../lib/use-resource';
import { TextWithTimes } from '../components/TextWithTimes';
import { LastRun, NextDue } from '../components/MonitorTimes';

const statusFilters: { value: '' | DisplayStatus; label: string }[] = [
  { value: '', label: 'All statuses' },
  { value: 'failed', label: 'Failed' },
  { value: 'running', label: 'Running' },
  { value: 'monitoring', label: 'Up' },
  { value: 'new', label: 'New' },
  { value: 'paused', label: 'Paused' },
];

const statusOrder: Record<DisplayStatus, number> = { failed: 0, running: 1, monitoring: 2, new: 3, paused: 4 };

/** Failed first, then running, then the rest; by name within each. */
export function sortMonitors(monitors: Monitor[]): Monitor[] {
  return [...monitors].sort(
    (a, b) => statusOrder[monitorStatus(a)] - statusOrder[monitorStatus(b)] || a.name.localeCompare(b.name),
  );
}

export function filterMonitors(monitors: Monitor[], search: string, status: string): Monitor[] {
  const needle = search.trim().toLowerCase();
  return monitors.filter(
    (m) =>
      (!status || monitorStatus(m) === status) &&
      (!needle || m.name.toLowerCase().includes(needle) || m.schedule.includes(needle) || m.timezone.toLowerCase().includes(needle)),
  );
}

export function MonitorsScreen(props: { query: URLSearchParams }) {
  const { api } = useApp();
  const monitors = useResource((signal) => api.monitors(signal), 'monitors', ['monitor.changed']);
  const [search, setSearch] = useState(props.query.get('q') ?? '');
  const [status, setStatus] = useState(props.query.get('status') ?? '');

  // Keep the filters in the address so a filtered list can be bookmarked or opened from the overview.
  useEffect(() => {
    const params = new URLSearchParams();
    if (search) params.set('q', search);
    if (status) params.set('status', status);
    const target = `#/monitors${params.size ? `?${params}` : ''}`;
    if (window.location.hash !== target) window.history.replaceState(null, '', target);
  }, [search, status]);

  // "/" jumps to the search box, as in most list views, unless the user is typing somewhere.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      const search = document.getElementById('monitor-search');
      if (!search) return;
      event.preventDefault();
      search.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const visible = useMemo(
    () => (monitors.data ? sortMonitors(filterMonitors(monitors.data, search, status)) : []),
    [monitors.data, search, status],
  );

  const newButton = (
    <a className="button button-primary" href="#/monitors/new">
      New monitor
    </a>
  );

  let body;
  if (monitors.loading) body = <Loading label="Loading monitors…" />;
  else if (!monitors.data) body = <ErrorState error={monitors.error!} onRetry={monitors.reload} />;
  else if (monitors.data.length === 0)
    body = (
      <EmptyState title="No monitors yet" action={newButton}>
        A monitor expects a pulse from a scheduled job and tells you when one is late.
      </EmptyState>
    );
  else
    body = (
      <>
        <StaleBanner error={monitors.error} onRetry={monitors.reload} />
        <div className="toolbar" role="search">
          <label className="sr-only" htmlFor="monitor-search">
            Search monitors
          </label>
          <input
            id="monitor-search"
            type="search"
            placeholder="Search by name, schedule or zone (press /)"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <label className="sr-only" htmlFor="monitor-status">
            Filter by status
          </label>
          <select id="monitor-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            {statusFilters.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
          <span className="muted toolbar-count" aria-live="polite">
            {visible.length} of {monitors.data.length}
          </span>
        </div>
        {visible.length === 0 ? (
          <EmptyState title="No monitor matches">Clear the search or pick another status.</EmptyState>
        ) : (
          <MonitorTable monitors={visible} />
        )}
      </>
    );

  return (
    <>
      <PageHeader title="Monitors" actions={newButton} />
      {body}
    </>
  );
}

function MonitorTable(props: { monitors: Monitor[] }) {
  return (
    <div className="table-wrap">
      <table className="table table-clickable">
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Name</th>
            <th scope="col">Schedule</th>
            <th scope="col">Next due</th>
            <th scope="col" className="wide-only">
              Last run
            </th>
            <th scope="col" className="numeric wide-only">
              Last duration
            </th>
          </tr>
        </thead>
        <tbody>
          {props.monitors.map((monitor) => (
            <tr key={monitor.id} data-testid={`monitor-row-${monitor.id}`} onClick={() => navigate(`/monitors/${monitor.id}`)}>
              <td>
                <StatusBadge status={monitorStatus(monitor)} />
              </td>
              <td className="cell-name">
                <a href={`#/monitors/${monitor.id}`} onClick={(e) => e.stopPropagation()}>
                  {monitor.name}
                </a>
                {monitor.is_alerted ? <div className="cell-sub text-bad"><TextWithTimes text={monitor.alert_reason} /></div> : null}
                {/* Narrow screens fold the last two columns into this line. */}
                <div className="cell-sub narrow-only">
                  {monitor.last_pulse_at ? (
                    <>
                      Last run <LastRun monitor={monitor} relative /> · took <LastDuration monitor={monitor} />
                    </>
                  ) : (
                    'No run yet'
                  )}
                </div>
              </td>
              <td>
                <div>{scheduleInWords(monitor.schedule, monitor.timezone) ?? monitor.schedule}</div>
                <div className="cell-sub code">{monitor.schedule}</div>
              </td>
              <td className="cell-time">
                <NextDue monitor={monitor} relative />
              </td>
              <td className="cell-time wide-only">
                <LastRun monitor={monitor} relative />
              </td>
              <td className="numeric wide-only">
                <LastDuration monitor={monitor} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
