import { AlertHold, alertsAfterWords } from '../components/AlertHold';
import { pageAgentBase } from '../api/client';
import { useState } from 'react';
import type { Monitor } from '../api/types';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ChannelPicker } from '../components/ChannelPicker';
import { SendPulses } from '../components/SendPulses';
import { MonitorActions } from '../components/MonitorActions';
import { LastRun, NextDue } from '../components/MonitorTimes';
import { PageHeader } from '../components/Layout';
import { EmptyState, ErrorState, Loading, StaleBanner } from '../components/states';
import { monitorProblem, monitorStatus, StatusBadge } from '../components/StatusBadge';
import { withMaintenance } from '../lib/maintenance';
import { ZonedTime } from '../components/ZonedTime';
import { useApp } from '../lib/app-context';
import { formatDuration } from '../lib/format';
import { navigate } from '../lib/router';
import { deleteHere } from '../lib/deletingHere';
import { nextRuns, periodNextRun } from '../lib/schedule';
import { kindOf, scheduleWords } from '../../../agent/domain/schedules';
import { useNow } from '../lib/now';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import './Maintenance.css';
import { RunHistory } from './RunHistory';
import { SettingsHistory } from '../components/SettingsHistory';
import { detailPiecesOf } from '../../../agent/domain/alerts/reasonPieces';
import { AlertReasonText } from '../components/AlertReasonText';
import { EditOnly } from '../components/ReadOnly';

/**
 * When the job runs, in words, beside its next expected run, each time labelled with its zone:
 * "Runs at 00:00 Europe/Berlin · next Sat 28 Nov 00:00 Europe/Berlin (Fri 27 Nov 23:00 UTC)".
 * The deadline (the run plus the grace) is the "Next due" fact below it.
 */
function RunLine(props: { monitor: Monitor }) {
  const m = props.monitor;
  const now = useNow();
  const words = scheduleWords(m.schedule, m.timezone);
  const next = kindOf(m.schedule) === 'period' ? periodNextRun(m, now) : nextRuns(m.schedule, m.timezone, 1, new Date(now));
  const nextAt = Array.isArray(next) ? next[0] : next instanceof Date ? next : undefined;
  return (
    <p className="run-line" data-testid="run-line">
      <span>
        Runs {words ?? `${m.schedule} (${m.timezone})`}
      </span>
      {nextAt ? (
        <span>
          <span className="muted">· next </span>
          <ZonedTime value={nextAt.getTime()} zone={m.timezone} />
        </span>
      ) : null}
    </p>
  );
}

export { commandLines, pulseUrlOf } from '../components/SendPulses';

/** One sentence on what the monitor is doing; a new one is never called "up". */
function StatusText(props: { monitor: Monitor }) {
  const m = props.monitor;
  switch (monitorStatus(m)) {
    case 'failed':
      // The badge says the word (missed, stuck, failed); the sentence beside it says what happened.
      return <AlertReasonText pieces={detailPiecesOf(m.alert_reason_data)} text={m.alert_reason} fallback="No pulse in time." zone={m.timezone} />;
    case 'running':
      return <>A run has started and not finished yet.</>;
    case 'paused':
      return m.paused_until ? (
        <>
          Snoozed: no alerts until <ZonedTime value={m.paused_until} zone={m.timezone} />. Pulses are still recorded.
        </>
      ) : (
        <>Paused: no alerts until you resume it. Pulses are still recorded.</>
      );
    case 'new': {
      // New with pulses before: resumed, waiting afresh (a failure before the pause is not a recovery).
      const which = m.last_pulse_at === null ? 'its first run' : 'its next run since it was resumed';
      // The deadline less the grace is the run it waits for (a resume grace aside).
      return m.next_due_at ? (
        <>
          Waiting for {which}, due <ZonedTime value={Date.parse(m.next_due_at) - m.duration * 60_000} zone={m.timezone} />.
        </>
      ) : (
        <>Waiting for {which}.</>
      );
    }
    default:
      return <>Pulses are arriving on time.</>;
  }
}

/** "In maintenance until 14:00" while a maintenance window covers the monitor; nothing otherwise. */
function InMaintenance(props: { id: number; zone: string }) {
  const { api } = useApp();
  const windows = useResource(queries.monitorMaintenance(api, props.id));
  const until = windows.data?.map((w) => w.active_until).filter((t): t is string => t !== null).sort().at(-1);
  if (!until) return null;
  return (
    <div className="status-maintenance" data-testid="monitor-maintenance">
      In maintenance until <ZonedTime value={until} zone={props.zone} />: no alerts; pulses are still recorded, and then it waits for its next run.
    </div>
  );
}

export function MonitorDetailScreen(props: { id: number }) {
  const { api } = useApp();
  const monitor = useResource(queries.monitor(api, props.id));
  const cli = useResource(queries.cli(api));
  const maintenance = useResource(queries.monitorMaintenance(api, props.id));
  const [confirming, setConfirming] = useState(false);

  if (monitor.loading) return <Loading label="Loading monitor…" />;
  // A 404 after the page was drawn: deleted elsewhere (another tab, a script), so its old data is no use.
  const notFound = (monitor.error as { status?: number } | undefined)?.status === 404;
  if (!monitor.data || notFound) {
    return (
      <>
        <PageHeader title="Monitor" back={{ href: '#/monitors', label: 'Monitors' }} />
        {notFound ? (
          <EmptyState title="This monitor does not exist" action={<a className="button" href="#/monitors">All monitors</a>}>
            It may have been deleted.
          </EmptyState>
        ) : (
          <ErrorState error={monitor.error!} onRetry={monitor.reload} />
        )}
      </>
    );
  }

  const m = monitor.data;
  const status = monitorStatus(m);
  const shown = withMaintenance(status, (maintenance.data?.length ?? 0) > 0);
  return (
    <>
      <PageHeader
        title={m.name}
        back={{ href: '#/monitors', label: 'Monitors' }}
        actions={
          <EditOnly>
            <a className="button" href={`#/monitors/${m.id}/edit`}>
              Edit
            </a>
            <MonitorActions monitor={m} />
            <button type="button" className="button button-danger-quiet" onClick={() => setConfirming(true)}>
              Delete…
            </button>
          </EditOnly>
        }
      />
      <StaleBanner error={monitor.error} onRetry={monitor.reload} />
      <section className={`card status-card status-${shown === 'maintenance' ? 'under-maintenance' : status}`} aria-label="Status">
        <div className="status-line">
          <StatusBadge status={shown} problem={monitorProblem(m)} />
          <span data-testid="monitor-status-text">
            {/* Under maintenance the line below says it all: its runs are not watched, so not "on time". */}
            {shown === 'maintenance' ? 'Its runs are not watched until the maintenance ends.' : <StatusText monitor={m} />}
          </span>
        </div>
        <InMaintenance id={m.id} zone={m.timezone} />
        <AlertHold monitor={m} />
        <RunLine monitor={m} />
        <dl className="facts">
          <div>
            <dt>Next due</dt>
            <dd data-testid="monitor-next-due">
              <NextDue monitor={m} zoned />
            </dd>
          </div>
          <div>
            <dt>Last run</dt>
            <dd>
              <LastRun monitor={m} zoned />
            </dd>
          </div>
          <div>
            <dt>Schedule</dt>
            <dd className="code">{m.schedule}</dd>
          </div>
          <div>
            <dt>Time zone</dt>
            <dd>{m.timezone}</dd>
          </div>
          <div>
            <dt>Grace</dt>
            <dd>{formatDuration(m.duration * 60_000)}</dd>
          </div>
          <div>
            <dt>Max run time</dt>
            <dd data-testid="monitor-max-runtime">{m.max_runtime === undefined ? <span className="muted">No limit</span> : formatDuration(m.max_runtime * 60_000)}</dd>
          </div>
          {m.alert_after ? (
            <div>
              <dt>Alerts</dt>
              <dd>{alertsAfterWords(m.alert_after)}</dd>
            </div>
          ) : null}
          {m.tags && m.tags.length > 0 ? (
            <div>
              <dt>Tags</dt>
              <dd>{m.tags.join(', ')}</dd>
            </div>
          ) : null}
          {m.slug ? (
            <div>
              <dt>Job line</dt>
              <dd className="code">--name {m.slug}</dd>
            </div>
          ) : null}
          <div>
            <dt>Created</dt>
            <dd>
              <ZonedTime value={m.created_at} zone={m.timezone} />
            </dd>
          </div>
        </dl>
      </section>

      <SendPulses monitor={m} origin={pageAgentBase()} cli={cli.data} />

      <ChannelPicker path="monitors" id={m.id} what="monitor" />

      <RunHistory monitorId={m.id} zone={m.timezone} />

      <SettingsHistory monitorId={m.id} zone={m.timezone} />

      <ConfirmDialog
        open={confirming}
        title={`Delete “${m.name}”?`}
        message="Its pulses stop being watched and it leaves every list. Notifications about it stay."
        confirmLabel="Delete monitor"
        onConfirm={async () => {
          await deleteHere('monitor', m.id, () => api.deleteMonitor(m.id));
          navigate('/monitors');
        }}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
