import { memo, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import type { Monitor } from '../api/types';
import type { MaintenanceWindowResource } from '../../../agent/contract/maintenanceWindows';
import { PageHeader } from '../components/Layout';
import { EmptyState, ErrorState, Loading, StaleBanner } from '../components/states';
import { monitorProblem, monitorStatus, StatusBadge, type DisplayStatus } from '../components/StatusBadge';
import { filterMonitors, keepOrder, tagsOfMonitors } from '../lib/monitorList';
import { LastDuration } from '../components/LastDuration';
import { useApp } from '../lib/app-context';
import { navigate } from '../lib/router';
import { scheduleInWords } from '../lib/schedule';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import { useSettled } from '../lib/use-settled';
import { underMaintenance, withMaintenance } from '../lib/maintenance';
import { detailPiecesOf } from '../../../agent/domain/alerts/reasonPieces';
import { AlertReasonText } from '../components/AlertReasonText';
import { LastRun, NextDue } from '../components/MonitorTimes';
import { EditOnly } from '../components/ReadOnly';

const statusFilters: { value: '' | DisplayStatus | 'maintenance'; label: string }[] = [
  { value: '', label: 'All statuses' },
  // The API's failed status: the job said so, no run came, or a run is taking too long.
  { value: 'failed', label: 'Failed, missed or stuck' },
  { value: 'running', label: 'Running' },
  { value: 'monitoring', label: 'Up' },
  { value: 'maintenance', label: 'In maintenance' },
  { value: 'new', label: 'New' },
  { value: 'paused', label: 'Paused' },
];

/** How long typing in the search box pauses before the address shows it. */
const ADDRESS_AFTER_TYPING_MS = 400;

export function MonitorsScreen(props: { query: URLSearchParams }) {
  const { api } = useApp();
  const monitors = useResource(queries.monitors(api));
  const windows = useResource(queries.maintenanceWindows(api)).data;
  const [search, setSearch] = useState(props.query.get('q') ?? '');
  const [status, setStatus] = useState(props.query.get('status') ?? '');
  const [tag, setTag] = useState(props.query.get('tag') ?? '');

  // Keep the filters in the address so a filtered list can be bookmarked or opened from the overview.
  // The search follows once typing pauses: every new address makes Chromium fetch and draw the
  // page's icon again, a few milliseconds a keystroke.
  const addressSearch = useSettled(search, ADDRESS_AFTER_TYPING_MS);
  useEffect(() => {
    const params = new URLSearchParams();
    if (addressSearch) params.set('q', addressSearch);
    if (status) params.set('status', status);
    if (tag) params.set('tag', tag);
    const target = `#/monitors${params.size ? `?${params}` : ''}`;
    if (window.location.hash !== target) window.history.replaceState(null, '', target);
  }, [addressSearch, status, tag]);

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

  // Ordered once per change of the data (a live change keeps the order: keepOrder); a keystroke only
  // filters, and typing stays responsive while a long list catches up (the deferred value lags
  // behind the box, never the other way round).
  const shown = useRef<Monitor[] | null>(null);
  const sorted = useMemo(() => (monitors.data ? (shown.current = keepOrder(shown.current, monitors.data)) : []), [monitors.data]);
  const deferredSearch = useDeferredValue(search);
  const visible = useMemo(
    () => filterMonitors(sorted, deferredSearch, status, tag, (m) => withMaintenance(monitorStatus(m), underMaintenance(windows, m))),
    [sorted, deferredSearch, status, tag, windows],
  );
  const allTags = useMemo(() => tagsOfMonitors(sorted), [sorted]);

  const newButton = (
    <EditOnly>
      <a className="button button-primary" href="#/monitors/new">
        New monitor
      </a>
    </EditOnly>
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
          {allTags.length > 0 || tag ? (
            <>
              <label className="sr-only" htmlFor="monitor-tag">
                Filter by tag
              </label>
              <select id="monitor-tag" value={tag} onChange={(e) => setTag(e.target.value)}>
                <option value="">All tags</option>
                {(allTags.includes(tag) || !tag ? allTags : [...allTags, tag]).map((each) => (
                  <option key={each} value={each}>
                    {each}
                  </option>
                ))}
              </select>
            </>
          ) : null}
          <span className="muted toolbar-count" aria-live="polite">
            {visible.length.toLocaleString()} of {monitors.data.length.toLocaleString()}
          </span>
        </div>
        {visible.length === 0 ? (
          <EmptyState title="No monitor matches">Clear the search or pick another status or tag.</EmptyState>
        ) : (
          <MonitorTable monitors={visible} windows={windows} />
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

/** Above this many rows only those near the viewport are in the page. */
const VIRTUALIZE_FROM = 100;

function MonitorTable(props: { monitors: Monitor[]; windows: MaintenanceWindowResource[] | undefined }) {
  const { monitors, windows } = props;
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [bodyTop, setBodyTop] = useState(0);
  useLayoutEffect(() => {
    const measure = () => setBodyTop((bodyRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY);
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, []);
  const virtual = monitors.length >= VIRTUALIZE_FROM;
  const virtualizer = useWindowVirtualizer({
    count: monitors.length,
    estimateSize: () => 58,
    overscan: 8,
    scrollMargin: bodyTop,
    enabled: virtual,
    getItemKey: (index) => monitors[index]!.id,
  });
  const items = virtual ? virtualizer.getVirtualItems() : null;
  const padTop = items?.length ? items[0]!.start - bodyTop : 0;
  const padBottom = items?.length ? virtualizer.getTotalSize() - (items[items.length - 1]!.end - bodyTop) : 0;
  return (
    <div className="table-wrap">
      <table className="table table-clickable" aria-rowcount={monitors.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
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
        <tbody ref={bodyRef}>
          {padTop > 0 ? <Spacer height={padTop} /> : null}
          {items
            ? items.map((item) => <MonitorRow key={item.key} monitor={monitors[item.index]!} index={item.index} measure={virtualizer.measureElement} covered={underMaintenance(windows, monitors[item.index]!)} />)
            : monitors.map((monitor, index) => <MonitorRow key={monitor.id} monitor={monitor} index={index} covered={underMaintenance(windows, monitor)} />)}
          {padBottom > 0 ? <Spacer height={padBottom} /> : null}
        </tbody>
      </table>
    </div>
  );
}

/** Holds the place of the rows scrolled out of the page. */
function Spacer(props: { height: number }) {
  return (
    <tr aria-hidden="true" className="row-spacer" style={{ height: props.height }}>
      <td colSpan={6} />
    </tr>
  );
}

/**
 * One monitor's row. Memoized on the monitor's object, which the cache replaces only when that
 * monitor changed: a live update re-renders one row, not the list (its times follow the shared clock).
 */
const MonitorRow = memo(function MonitorRow(props: { monitor: Monitor; index: number; covered: boolean; measure?: (row: HTMLTableRowElement | null) => void }) {
  const { monitor } = props;
  return (
    <tr
      ref={props.measure}
      data-index={props.index}
      aria-rowindex={props.index + 2}
      data-testid={`monitor-row-${monitor.id}`}
      onClick={() => navigate(`/monitors/${monitor.id}`)}
    >
      <td>
        <StatusBadge status={withMaintenance(monitorStatus(monitor), props.covered)} problem={monitorProblem(monitor)} />
      </td>
      <td className="cell-name">
        <a href={`#/monitors/${monitor.id}`} onClick={(e) => e.stopPropagation()}>
          {monitor.name}
        </a>
        {monitor.is_alerted ? <div className="cell-sub text-bad"><AlertReasonText pieces={detailPiecesOf(monitor.alert_reason_data)} text={monitor.alert_reason} /></div> : null}
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
  );
});
