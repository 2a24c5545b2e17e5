import type { Server } from '../api/types';
import { Time } from './Time';

/**
 * When the server's crontab watcher last reported. A watcher that missed two reports and a minute
 * is quiet (the API's `quiet`, from agent/domain/servers/quietAfter.ts, the moment its quiet alert
 * is raised too): it died, or cannot reach this agent, and changes on that server would go unseen.
 */
export function LastReport(props: { server: Server }) {
  const { server } = props;
  if (!server.last_report_at) return <span className="muted">No report yet</span>;
  return (
    <span data-testid="last-report" className={server.quiet ? 'text-warn' : undefined}>
      {server.quiet ? (
        <span className="badge badge-warn" title="Its watcher missed two reports and a minute: it stopped, or cannot reach Cronbeat">
          <span className="badge-dot" aria-hidden="true" />
          Quiet
        </span>
      ) : null}{' '}
      <Time value={server.last_report_at} relative past />
    </span>
  );
}
