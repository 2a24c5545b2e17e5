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
import { monitorStatus, StatusBadge } from '../components/StatusBadge';
import { Time } from '../components/Time';
import { useApp } from '../lib/app-context';
import { formatDuration } from '../lib/format';
import { navigate } from '../lib/router';
import { nextRuns } from '../lib/schedule';
import { scheduleWords } from '../../../agent/domain/schedules';
import { useNow } from '../lib/now';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';
import './Maintenance.css';
import { RunHistory } from './RunHistory';
import { SettingsHistory } from '../components/SettingsHistory';
import { reasonPiecesOf } from '../../../agent/domain/alerts/reasonPieces';
import { AlertReasonText } from '../components/AlertReasonText';

/**
 * When the job runs, in words, beside its next expected run: "Runs at 02:30 Europe/Paris,
 * Monday through Friday · next expected Thu 26 Nov, 02:30". The deadline (the run plus the
 * grace) is the "Next due" fact below it.
 */
function RunLine(props: { monitor: Monitor }) {
  const m = props.monitor;
  const now = useNow();
  const words = scheduleWords(m.schedule, m.timezone);
  const next = nextRuns(m.schedule, m.timezone, 1, new Date(now));
  const nextAt = Array.isArray(next) ? next[0] : undefined;
  return (
    <p className="run-line" data-testid="run-line">
      <span>
        Runs {words ?? `${m.schedule} (${m.timezone})`}
      </span>
      {nextAt ? (
        <span>
          <span className="muted">next expected </span>
          <Time value={nextAt.toISOString()} />
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
      return <AlertReasonText pieces={reasonPiecesOf(m.alert_reason_data)} text={m.alert_reason} fallback="No pulse in time." />;
    case 'running':
      return <>A run has started and not finished yet.</>;
    case 'paused':
      return m.paused_until ? (
        <>
          Snoozed: no alerts until <Time value={m.paused_until} />. Pulses are still recorded.
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
          Waiting for {which} (<Time value={new Date(Date.parse(m.next_due_at) - m.duration * 60_000).toISOString()} />).
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
function InMaintenance(props: { id: number }) {
  const { api } = useApp();
  const windows = useResource(queries.monitorMaintenance(api, props.id));
  const until = windows.data?.map((w) => w.active_until).filter((t): t is string => t !== null).sort().at(-1);
  if (!until) return null;
  return (
    <div className="status-maintenance" data-testid="monitor-maintenance">
      In maintenance until <Time value={until} />: no alerts; pulses are still recorded, and then it waits for its next run.
    </div>
  );
}

export function MonitorDetailScreen(props: { id: number }) {
  const { api } = useApp();
  const monitor = useResource(queries.monitor(api, props.id));
  const cli = useResource(queries.cli(api));
  const [confirming, setConfirming] = useState(false);

  if (monitor.loading) return <Loading label="Loading monitor…" />;
  if (!monitor.data) {
    const notFound = (monitor.error as { status?: number } | undefined)?.status === 404;
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
  return (
    <>
      <PageHeader
        title={m.name}
        back={{ href: '#/monitors', label: 'Monitors' }}
        actions={
          <>
            <a className="button" href={`#/monitors/${m.id}/edit`}>
              Edit
            </a>
            <MonitorActions monitor={m} />
            <button type="button" className="button button-danger-quiet" onClick={() => setConfirming(true)}>
              Delete…
            </button>
          </>
        }
      />
      <StaleBanner error={monitor.error} onRetry={monitor.reload} />
      <section className={`card status-card status-${status}`} aria-label="Status">
        <div className="status-line">
          <StatusBadge status={status} />
          <span data-testid="monitor-status-text">
            <StatusText monitor={m} />
          </span>
        </div>
        <InMaintenance id={m.id} />
        <RunLine monitor={m} />
        <dl className="facts">
          <div>
            <dt>Next due</dt>
            <dd data-testid="monitor-next-due">
              <NextDue monitor={m} />
            </dd>
          </div>
          <div>
            <dt>Last run</dt>
            <dd>
              <LastRun monitor={m} />
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
              <Time value={m.created_at} />
            </dd>
          </div>
        </dl>
      </section>

      <SendPulses monitor={m} origin={pageAgentBase()} cli={cli.data} />

      <ChannelPicker path="monitors" id={m.id} what="monitor" />

      <RunHistory monitorId={m.id} />

      <SettingsHistory monitorId={m.id} />

      <ConfirmDialog
        open={confirming}
        title={`Delete “${m.name}”?`}
        message="Its pulses stop being watched and it leaves every list. Notifications about it stay."
        confirmLabel="Delete monitor"
        onConfirm={async () => {
          await api.deleteMonitor(m.id);
          navigate('/monitors');
        }}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
