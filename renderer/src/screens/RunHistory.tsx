import { useState, type ReactNode } from 'react';
import type { Pulse } from '../api/types';
import { DurationChart } from '../components/DurationChart';
import { Pager } from '../components/Pager';
import { EmptyState, ErrorState, Loading } from '../components/states';
import { StatusBadge } from '../components/StatusBadge';
import { Time } from '../components/Time';
import { ZonedTime } from '../components/ZonedTime';
import { useApp } from '../lib/app-context';
import { formatDuration } from '../lib/format';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import { windowOfResource } from '../../../agent/contract/maintenanceWindows';
import { spanAt } from '../../../agent/domain/maintenance/windows';
import { readableOutput } from '../../../agent/domain/alerts/words';

function pulseTime(pulse: Pulse): string {
  return pulse.received_at;
}

/** The monitor's pulses, newest first: a chart of run durations, then each pulse with its output. */
export function RunHistory(props: { monitorId: number; zone?: string }) {
  const { api } = useApp();
  const [page, setPage] = useState(1);
  const pulses = useResource(queries.pulses(api, props.monitorId, page, 50));
  const windows = useResource(queries.monitorWindows(api, props.monitorId));
  const rules = (windows.data ?? []).map(windowOfResource);
  // A pulse that came during maintenance was recorded but changed nothing (docs/monitoring.md).
  const duringMaintenance = (pulse: Pulse) => rules.some((w) => spanAt(w, Date.parse(pulse.received_at)) !== null);
  let body;
  if (pulses.loading) body = <Loading label="Loading runs…" />;
  else if (!pulses.data) {
    const missing = (pulses.error as { status?: number } | undefined)?.status === 404;
    body = missing ? <p className="muted">This agent does not keep a run history.</p> : <ErrorState error={pulses.error!} onRetry={pulses.reload} />;
  } else if (pulses.data.total === 0)
    body = (
      <EmptyState title="No pulses yet">
        The first pulse starts the history. Until then the monitor counts from its creation.
      </EmptyState>
    );
  else
    body = (
      <>
        <DurationChart pulses={pulses.data.data} zone={props.zone} />
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Event</th>
                <th scope="col" className="numeric">
                  Exit code
                </th>
                <th scope="col" className="numeric">
                  Duration
                </th>
                <th scope="col">Output</th>
              </tr>
            </thead>
            <tbody>
              {pulses.data.data.map((pulse) => (
                <tr key={pulse.id}>
                  <td className={props.zone ? 'cell-time cell-time-zoned' : 'cell-time'}>
                    {props.zone ? <ZonedTime value={pulseTime(pulse)} zone={props.zone} seconds /> : <Time value={pulseTime(pulse)} />}
                  </td>
                  <td>
                    <StatusBadge status={pulse.kind} />
                    {duringMaintenance(pulse) ? <span className="history-note"> in maintenance</span> : null}
                  </td>
                  <td className="numeric">{pulse.exit_code ?? '—'}</td>
                  <td className="numeric cell-duration">{formatDuration(pulse.duration_ms)}</td>
                  <td className="cell-output">
                    {pulse.kind === 'pause' && pulse.paused_until ? (
                      // A snooze's end from its data, in the viewer's zone (the stored words say it in UTC).
                      <span className="history-note">
                        Snoozed until {props.zone ? <ZonedTime value={pulse.paused_until} zone={props.zone} /> : <Time value={pulse.paused_until} />}
                      </span>
                    ) : pulse.kind === 'pause' || pulse.kind === 'resume' ? (
                      // The agent's own words ("Paused until resumed", a snooze noted before its end was data), as it wrote them.
                      <span className="history-note">{pulse.body}</span>
                    ) : pulse.body ? (
                      <OutputDetails body={pulse.body}>
                        {pulse.body_truncated ? <div className="output-cut">Cut: only the first 100 KB of the output are kept.</div> : null}
                      </OutputDetails>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pager page={pulses.data} label="Run history pages" onPage={setPage} />
      </>
    );
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">Run history</h2>
      {body}
    </section>
  );
}

/** A run's output as the job's terminal showed it: its colour codes and other escapes left out, never printed as `␛[31m`. */
function OutputDetails(props: { body: string; children?: ReactNode }) {
  const text = readableOutput(props.body);
  return (
    <details>
      <summary>{text.split('\n', 1)[0]!.slice(0, 80) || 'Output'}</summary>
      <pre className="output">{text}</pre>
      {props.children}
    </details>
  );
}
