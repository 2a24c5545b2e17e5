import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { ErrorState, Loading } from '../components/states';
import { Time } from '../components/Time';
import type { ServerWatcher } from '../api/types';
import { useCanEdit } from '../lib/access';
import { useApp } from '../lib/app-context';
import { formatDuration } from '../lib/format';
import { keys, queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';

/** How the page names a watcher: its own name, or what the unnamed one is (a cronbeat from before watchers named themselves). */
function watcherLabel(watcher: string): string {
  return watcher || 'unnamed (older cronbeat)';
}

/**
 * A server's watchers (GET /api/servers/{id}/watchers), each quiet on its own. The server is quiet
 * while any of them is, so a watcher stopped for good, or renamed because its files changed, keeps
 * it quiet until it is forgotten: Forget is the dashboard's way out (docs/monitoring.md#quiet-servers).
 */
export function ServerWatchers(props: { serverId: number }) {
  const { api } = useApp();
  const client = useQueryClient();
  const watchers = useResource(queries.serverWatchers(api, props.serverId));
  const canEdit = useCanEdit();
  const [forgetting, setForgetting] = useState<ServerWatcher | null>(null);

  let body;
  if (watchers.loading) body = <Loading label="Loading watchers…" />;
  else if (!watchers.data) body = <ErrorState error={watchers.error!} onRetry={watchers.reload} />;
  else if (watchers.data.length === 0) body = <p className="muted">No watcher has reported yet: run the command above on the server.</p>;
  else body = <WatcherTable watchers={watchers.data} onForget={canEdit ? setForgetting : undefined} />;

  return (
    <section className="card" aria-labelledby="watchers-title" data-testid="server-watchers">
      <h2 id="watchers-title">Watchers</h2>
      {body}
      <ConfirmDialog
        open={forgetting !== null}
        title={forgetting?.watcher ? `Forget the watcher “${forgetting.watcher}”?` : 'Forget the unnamed watcher (older cronbeat)?'}
        message="For a watcher stopped for good, or replaced by one of other files: it no longer keeps the server quiet. Nothing is notified; if it still runs, it is back at its next report."
        confirmLabel="Forget watcher"
        busyLabel="Forgetting…"
        onConfirm={async () => {
          await api.forgetServerWatcher(props.serverId, forgetting!.watcher);
          // The server's quiet flag and its list row change with it, not only this table (the live event does this too, a moment later).
          await Promise.all([client.invalidateQueries({ queryKey: keys.server(props.serverId) }), client.invalidateQueries({ queryKey: keys.servers })]);
        }}
        onClose={() => setForgetting(null)}
      />
    </section>
  );
}

/** One row a watcher; `onForget` only for a key that may forget one. */
function WatcherTable(props: { watchers: ServerWatcher[]; onForget: ((watcher: ServerWatcher) => void) | undefined }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Watcher</th>
            <th scope="col">Last report</th>
            <th scope="col">Reports</th>
            <th scope="col">Jobs</th>
            <th scope="col">State</th>
            {props.onForget ? (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {props.watchers.map((w) => (
            <tr key={w.watcher} data-testid="server-watcher">
              <td className="code cell-command">{w.watcher ? w.watcher : <span className="muted">{watcherLabel('')}</span>}</td>
              <td>
                <Time value={w.last_report_at} relative past />
              </td>
              <td>{w.report_interval_seconds === null ? <span className="muted">—</span> : `every ${formatDuration(w.report_interval_seconds * 1000)}`}</td>
              <td>{w.jobs ?? <span className="muted">—</span>}</td>
              <td>
                <WatcherBadge quiet={w.quiet} />
              </td>
              {props.onForget ? (
                <td className="cell-actions">
                  <button
                    type="button"
                    className="button button-small button-danger-quiet"
                    aria-label={`Forget watcher ${watcherLabel(w.watcher)}`}
                    onClick={() => props.onForget!(w)}
                  >
                    Forget…
                  </button>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function WatcherBadge(props: { quiet: boolean }) {
  return props.quiet ? (
    <span className="badge badge-warn" title="It missed two reports and a minute: it stopped, or cannot reach Cronbeat">
      <span className="badge-dot" aria-hidden="true" />
      Quiet
    </span>
  ) : (
    <span className="badge badge-good">
      <span className="badge-dot" aria-hidden="true" />
      Reporting
    </span>
  );
}
