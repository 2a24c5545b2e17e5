import { ApiClient, MAX_LIST_BYTES } from '../agent/client/connection/api';
import type { AgentAccess } from '../agent/client/connection/agentCheck';
import { agentName, noticeText, type ConnectionNotice } from '../agent/client/connection/connectionWatch';
import { FollowRefused, NotificationFollower } from '../agent/client/follow/follower';
import { requestWithRetry } from '../agent/client/connection/http';
import { followerPopups, type FollowerPopup } from '../agent/client/follow/notificationPopups';
import type { NotificationCursor } from '../agent/client/follow/notificationCursor';
import { traySnapshotOf } from './agentSnapshot';
import { refusalWords, type MonitorStatus, type TraySnapshot } from './trayModel';

/** A burst of stream events redraws the tray once, this long after the first. */
const REFRESH_DELAY_MS = 300;
/** A read of the tray's lists that failed (the agent answered an error) is tried again this long after. */
const REFRESH_RETRY_MS = 15_000;

export interface RemoteAgentOptions {
  url: string;
  key: string;
  access: AgentAccess;
  /** Raises a native popup (muting is the caller's business). */
  popup(popup: FollowerPopup): void;
  /** Something the tray shows changed: the snapshot, the connection, a refusal. */
  onChange(): void;
  log(line: string): void;
  clock?: () => number;
  /** Local time of day for notices ("14:02"). */
  timeOfDay?: (ms: number) => string;
  /** How long after a failed read of the tray's lists it is tried again (default 15 s). */
  refreshRetryMs?: number;
  /** Which notifications an earlier run of the app showed (what `saveCursor` was last given). */
  cursor?: NotificationCursor;
  /** Keeps which notifications were shown, for the next run. */
  saveCursor?(cursor: NotificationCursor): void;
}

/** What the tray says about a remote agent besides its monitors. */
export interface RemoteStatus {
  /** When the agent was lost, once "unreachable" was announced; null while fine. */
  unreachableSince: number | null;
  /** Why following stopped for good (a revoked key); null while following. */
  refused: string | null;
  /** The status it stopped at; null while following. */
  refusedStatus: number | null;
  /** Why its monitors could not be read the last time they were asked for (the stream up); null once they were. */
  unreadable: string | null;
  /** How far its clock is ahead of this computer's (behind: negative), from its last answer's Date; null when unknown. */
  clockOffsetMs: number | null;
  /** When its stream was lost, while it is being connected again (a restart, a network change); null while connected. */
  reconnectingSince: number | null;
}

const hourMinute = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });

/**
 * The desktop app connected to an agent elsewhere: its notifications as popups (each once,
 * through the shared follower), its monitors and certificates for the tray, and the tray's
 * actions sent to its API. No Electron here: the shell passes `popup` and redraws on `onChange`.
 */
export class RemoteAgent {
  readonly name: string;
  snapshot: TraySnapshot | null = null;
  readonly status: RemoteStatus = { unreachableSince: null, refused: null, refusedStatus: null, unreadable: null, clockOffsetMs: null, reconnectingSince: null };
  private readonly api: ApiClient;
  private readonly follower: NotificationFollower;
  private refreshTimer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: RemoteAgentOptions) {
    this.name = agentName(options.url);
    this.api = new ApiClient(options.url, options.key);
    this.follower = new NotificationFollower({
      baseUrl: options.url,
      token: options.key,
      clock: options.clock,
      cursor: options.cursor,
      onCursor: options.saveCursor,
      onNotifications: (notifications, info) => {
        for (const popup of followerPopups(notifications, info)) options.popup(popup);
      },
      onNotice: (notice) => this.notice(notice),
      onConnection: (connected, reason) => {
        // Said at once in the tooltip: what it shows is what was read before the loss.
        this.status.reconnectingSince = connected ? null : (options.clock ?? Date.now)();
        options.onChange();
        if (connected) this.scheduleRefresh(0);
        else options.log(`Lost ${options.url} (${reason}); reconnecting.`);
      },
      onEvent: (event) => {
        if (event.type === 'monitor.changed' || event.type === 'certificate.changed' || event.type === 'server.changed') this.scheduleRefresh(REFRESH_DELAY_MS);
      },
    });
  }

  /** Follows the agent until stop(). */
  start(): void {
    this.running = this.follower.run().catch((error: unknown) => {
      this.status.refused = error instanceof FollowRefused ? error.message : String(error);
      this.status.refusedStatus = error instanceof FollowRefused ? error.status : null;
      this.options.log(`Stopped following ${this.options.url}: ${this.status.refused}`);
      // Said once as a popup too: a grey icon alone is easily missed, and no alert from there comes any more.
      if (error instanceof FollowRefused) {
        this.options.popup({
          title: `Cronbeat on ${this.name}: ${refusalWords(error.status)}`,
          body: 'Alerts from it no longer reach this computer. Connect again with a key it takes, in Settings.',
          route: '/settings',
        });
      }
      this.options.onChange();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.follower.stop();
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    await this.running;
  }

  /** Whether the tray may offer to pause monitors (a read-only key may only watch). */
  get canChange(): boolean {
    return this.options.access === 'full';
  }

  /** Pauses a monitor on the agent: until resumed (`until` null) or until a time (ms). */
  async pause(monitorId: number, until: number | null): Promise<void> {
    await this.api.pauseMonitor(monitorId, until === null ? null : new Date(until).toISOString());
    this.scheduleRefresh(0);
  }

  /** Reads the monitors and certificates the tray shows. */
  async refresh(): Promise<void> {
    const headers = { authorization: `Bearer ${this.options.key}`, accept: 'application/json' };
    const [monitors, certificates, servers] = await Promise.all(
      // Whole lists in one answer each: the bound the CLI reads them with, not the 8 MB of other answers.
      ['/api/monitors', '/api/ssl-certificates', '/api/servers'].map((path) =>
        requestWithRetry({ method: 'GET', url: `${this.options.url}${path}`, headers, maxBytes: MAX_LIST_BYTES }),
      ),
    );
    // Said at once, as the local tray says a database it cannot read, and tried again soon: the
    // stream may stay connected with nothing new to say, and the tray would keep showing what it
    // read before (green while a monitor has failed since) until it does.
    for (const outcome of [monitors, certificates]) {
      if (outcome.kind !== 'ok') return this.unreadable(outcome.message.replace(`${new URL(this.options.url).origin} answered `, ''));
    }
    if (monitors.kind !== 'ok' || certificates.kind !== 'ok') return;
    const rows = JSON.parse(monitors.text) as Array<{ id: number; name: string; status: MonitorStatus }>;
    const certificateRows = JSON.parse(certificates.text) as Array<{ status: string }>;
    // An agent too old to list servers (or to say they are quiet) shows none.
    const serverRows = servers.kind === 'ok' ? (JSON.parse(servers.text) as Array<{ id: number; name: string; quiet?: boolean }>) : [];
    this.snapshot = {
      ...traySnapshotOf(
        rows.map(({ id, name, status }) => ({ id, name, status })),
        certificateRows.map((c) => c.status),
      ),
      quietServers: serverRows.filter((server) => server.quiet === true).map(({ id, name }) => ({ id, name })),
    };
    this.status.unreadable = null;
    const agentNow = Date.parse(String(monitors.headers?.date ?? ''));
    this.status.clockOffsetMs = Number.isNaN(agentNow) ? null : agentNow - (this.options.clock ?? Date.now)();
    this.options.onChange();
  }

  private unreadable(why: string): void {
    this.status.unreadable = why;
    this.options.onChange();
    this.scheduleRefresh(this.options.refreshRetryMs ?? REFRESH_RETRY_MS);
  }

  private scheduleRefresh(delay: number): void {
    if (this.refreshTimer || this.stopped) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      this.refresh().catch((error: unknown) => {
        // An answer that is no list (a proxy's page): what it says is in the log, not the tooltip.
        this.options.log(`Could not read ${this.options.url}: ${String(error)}`);
        this.unreadable('its answer is not a list of monitors');
      });
    }, delay);
  }

  private notice(notice: ConnectionNotice): void {
    this.status.unreachableSince = notice.kind === 'unreachable' ? notice.since : null;
    const { title, body } = noticeText(notice, this.name, this.options.timeOfDay ?? hourMinute);
    this.options.popup({ title, body, route: '/' });
    this.options.onChange();
  }
}
