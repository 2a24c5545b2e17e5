import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Monitor } from '../api/types';
import { useApp } from '../lib/app-context';
import { keys } from '../lib/queries';
import { ConfirmDialog } from './ConfirmDialog';
import { CopyField } from './CopyField';

const defaultAgentUrl = 'http://127.0.0.1:8787';

/** The pulse URL the agent reports, or the one this page's origin implies; null when the key may not see the token. */
export function pulseUrlOf(monitor: Monitor, origin: string): string | null {
  if (monitor.token === null) return null;
  return monitor.pulse_url ?? `${origin}/api/pulse/${monitor.token}`;
}

/**
 * Ready-to-paste lines: the wrapper (exit code and output sent for you) and a bare curl.
 * `cronbeat` is how the agent's machine runs the CLI (GET /api/cli): absolute paths when
 * `cronbeat` is not on its PATH, so the line works as copied there.
 */
export function commandLines(pulseUrl: string, token: string, cronbeat = 'cronbeat'): { run: string; curl: string } {
  const origin = new URL(pulseUrl).origin;
  const urlOption = origin === defaultAgentUrl ? '' : ` --url ${origin}`;
  return {
    run: `${cronbeat} run ${token}${urlOption} -- /path/to/your/job.sh`,
    curl: `curl -fsS -m 10 --retry 3 ${pulseUrl}`,
  };
}

/**
 * "Send pulses" on a monitor's page: its pulse URL and ready lines, and a new token for one that
 * leaked (after a confirm: every line that pings by the old token stops counting at once). A key
 * that may not write (read-only) is shown no token, since a token can fail or recover the monitor.
 */
export function SendPulses(props: { monitor: Monitor; origin: string; cli?: { command: string; on_path: boolean } }) {
  const { api } = useApp();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const m = props.monitor;
  const pulseUrl = pulseUrlOf(m, props.origin);
  if (pulseUrl === null || m.token === null) {
    return (
      <section className="card" aria-labelledby="send-title">
        <h2 id="send-title">Send pulses</h2>
        <p className="muted" data-testid="pulse-token-hidden">
          This key may only read, so the monitor’s pulse URL is not shown: its token can fail the monitor or clear a failure. Sign in
          with a full key to see it.
        </p>
      </section>
    );
  }
  const lines = commandLines(pulseUrl, m.token, props.cli?.command);
  return (
    <section className="card" aria-labelledby="send-title">
      <h2 id="send-title">Send pulses</h2>
      <p className="muted">
        Wrap the job with <code>cronbeat run</code> (it reports the start, the exit code and the end of the output), or call the
        pulse URL when the job succeeds. Append <code>/start</code>, <code>/fail</code> or an exit code to the URL for more.
      </p>
      <CopyField label="Pulse URL" value={pulseUrl} />
      <CopyField label="cronbeat run" value={lines.run} />
      {props.cli && !props.cli.on_path ? (
        <p className="muted" data-testid="cli-path-hint">
          <code>cronbeat</code> is not on the PATH cron gives jobs, so the line names it by its full path. To type plain{' '}
          <code>cronbeat</code>, or to use it on a server, see <em>Getting cronbeat</em> in docs/cli.md.
        </p>
      ) : null}
      <CopyField label="curl" value={lines.curl} />
      <p className="muted">
        Token leaked?{' '}
        <button type="button" className="button button-danger-quiet" onClick={() => setConfirming(true)}>
          New pulse token…
        </button>
      </p>
      <ConfirmDialog
        open={confirming}
        title={`New pulse token for “${m.name}”?`}
        message="The current token stops working at once: every crontab line and script that pings this monitor by it must get the new one (lines run with cronbeat run --name learn it by themselves)."
        confirmLabel="Make a new token"
        busyLabel="Making a new token…"
        onConfirm={async () => {
          await api.rotateMonitorToken(m.id);
          // The monitor, its settings history and the list all name the token or the change.
          await Promise.all([client.invalidateQueries({ queryKey: keys.monitor(m.id) }), client.invalidateQueries({ queryKey: keys.monitors })]);
        }}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
