import { CopyField } from '../components/CopyField';
import { Loading } from '../components/states';
import { useApp } from '../lib/app-context';
import { watchTarget } from '../lib/reach';
import { queries } from '../lib/queries';
import { useResource } from '../lib/use-resource';

/**
 * The command that watches a server's crontabs, with an agent address the server can reach; when
 * the agent listens on this machine only, first how to make it reachable.
 */
export function WatchCrontabs(props: { identifier: string }) {
  const { api } = useApp();
  const reach = useResource(queries.agent(api));
  const target = watchTarget(reach.data, window.location.href);
  return (
    <section className="card" aria-labelledby="watch-title">
      <h2 id="watch-title">Watch its crontabs</h2>
      {!target ? (
        <Loading label="Finding this agent's address…" />
      ) : (
        <>
          {!target.reachable && (
            <div className="banner banner-warning" role="note" data-testid="agent-unreachable">
              <p>
                <strong>Your servers cannot reach this agent yet:</strong> it listens on this machine only ({reach.data!.host}). Let other
                machines reach it first, either way:
              </p>
              <ul>
                <li>
                  in the desktop app, tray menu → <strong>Let servers reach this agent</strong> (the app restarts);
                </li>
                <li>
                  or run <code>cronbeat serve --host 0.0.0.0 --allow-host NAME</code>, where NAME is the name your servers use for
                  this machine (an address works without it).
                </li>
              </ul>
              <p>Then the command below works, with this machine's address.</p>
            </div>
          )}
          <p className="muted">
            Run this on the server (with <code>CRONBEAT_API_TOKEN</code> set to a ping key, the server’s own) to be told when a cron job is added, removed or changed.
          </p>
          <CopyField label="Watch command" value={`cronbeat crontab watch --server ${props.identifier} --url ${target.url}`} />
          {reach.data && reach.data.remote_urls.length > 1 && (
            <p className="muted">Other addresses of this machine: {reach.data.remote_urls.filter((url) => url !== target.url).join(', ')}</p>
          )}
        </>
      )}
    </section>
  );
}
