import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import type { Api } from '../api/endpoints';
import type { Monitor } from '../api/types';
import type { LiveEvent } from './live';
import { keys, withMonitor } from './queries';
import { deletedHere } from './deletingHere';

/** Events closer together than this are handled as one burst (a failure and its notification). */
const BURST_MS = 50;
/** Past this many monitors changed in one burst, the whole list is read again instead of each one. */
const MANY_MONITORS = 40;
/** After reading the whole list, wait this long before the next read, so a storm of pulses costs one list a second at most. */
const FULL_REFRESH_PAUSE_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Keeps the query cache true to the live stream (GET /api/events). A changed monitor is read
 * alone (GET /api/monitors/{id}) and replaced in the cached list, so at 10,000 monitors a pulse
 * costs one small request and one re-rendered row, not the whole list; every other topic marks
 * its entries stale, and what is on screen reloads once per burst.
 */
export class LiveCache {
  private changedMonitors = new Set<number>();
  private staleKeys = new Map<string, QueryKey>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private draining = false;
  private stopped = false;

  constructor(
    private readonly client: QueryClient,
    private readonly api: Api,
  ) {}

  handle(event: LiveEvent): void {
    if (this.stopped) return;
    switch (event.type) {
      case 'monitor.changed':
        if (typeof event.monitorId !== 'number') this.stale(keys.monitors, ['monitor']);
        else if (event.deleted) this.dropMonitor(event.monitorId);
        else this.changedMonitors.add(event.monitorId);
        break;
      case 'server.changed':
        this.stale(keys.servers, ...(typeof event.serverId === 'number' && deletedHere('server', event.serverId) ? [] : this.itemKeys(keys.server, event.serverId)));
        break;
      case 'certificate.changed':
        this.stale(keys.certificates, ...this.itemKeys(keys.certificate, event.certificateId));
        break;
      case 'notification.created':
        // A server's alerts are notifications too.
        this.stale(keys.notifications, ['server']);
        break;
      case 'notification.read':
        this.stale(keys.notifications);
        break;
      case 'channel.changed':
        this.stale(keys.channels);
        break;
      case 'maintenance.changed':
        // The list, and the windows a monitor's page shows (under the same key).
        this.stale(keys.maintenanceWindows);
        break;
      case 'delivery.changed':
        this.stale(typeof event.notificationId === 'string' ? keys.deliveries(event.notificationId) : ['deliveries']);
        break;
      case 'poll':
        // The stream was down, or the safety tick: anything may have changed.
        this.stale([]);
        break;
      default:
        return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.drain();
    }, BURST_MS);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /**
   * The entries of one server or certificate to reload. A deleted one's entry is reloaded too: it
   * is read again only while a screen shows it (another tab deleted it), whose 404 then says it is
   * gone; the tab that deleted it has left its page, so asks nothing.
   */
  private itemKeys(key: (id: number) => QueryKey, id: number | undefined): QueryKey[] {
    if (typeof id !== 'number') return [key(0).slice(0, 1)];
    return [key(id)];
  }

  /**
   * A deleted monitor leaves the list at once; its own entry is read again only while a page shows
   * it (deleted from another tab), so that page says it is gone rather than offer its buttons.
   */
  private dropMonitor(id: number): void {
    this.changedMonitors.delete(id);
    this.client.setQueryData<Monitor[]>(keys.monitors, (list) => (list ? withMonitor(list, id, null) : list));
    if (!deletedHere('monitor', id)) void this.client.invalidateQueries({ queryKey: keys.monitor(id), exact: true });
  }

  private stale(...queryKeys: QueryKey[]): void {
    for (const key of queryKeys) this.staleKeys.set(JSON.stringify(key), key);
  }

  /** One drain at a time, so a list read never overtakes a newer single read (or the reverse). */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (!this.stopped && (this.staleKeys.size || this.changedMonitors.size)) {
        const stale = [...this.staleKeys.values()];
        this.staleKeys.clear();
        const ids = [...this.changedMonitors];
        this.changedMonitors.clear();
        if (stale.some((key) => key.length === 0)) {
          await this.client.invalidateQueries();
          continue;
        }
        const work = stale.map((queryKey) => this.client.invalidateQueries({ queryKey }));
        if (ids.length > MANY_MONITORS) {
          work.push(this.reloadList(), this.client.invalidateQueries({ queryKey: ['monitor'] }));
          await Promise.all(work);
          await sleep(FULL_REFRESH_PAUSE_MS);
        } else {
          work.push(...ids.map((id) => this.refreshMonitor(id)));
          await Promise.all(work);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * Reads the whole list again. A read already under way (the page's first, say) is let land,
   * then the list is read once more: it may have been read before these changes, and asking
   * while it is under way would only join it.
   */
  private async reloadList(): Promise<void> {
    if (this.client.getQueryState(keys.monitors)?.fetchStatus === 'fetching') {
      await this.client.invalidateQueries({ queryKey: keys.monitors, exact: true }, { cancelRefetch: false });
    }
    await this.client.invalidateQueries({ queryKey: keys.monitors, exact: true });
  }

  private observed(queryKey: QueryKey): boolean {
    return (this.client.getQueryCache().find({ queryKey, exact: true })?.getObserversCount() ?? 0) > 0;
  }

  /** Reads one monitor and puts it in the list and its own entry; its runs reload where shown. */
  private async refreshMonitor(id: number): Promise<void> {
    const runs = this.client.invalidateQueries({ queryKey: keys.monitorPulses(id) });
    if (!this.observed(keys.monitors) && !this.observed(keys.monitor(id))) {
      // Nobody shows it: mark it stale, read it when a screen asks.
      await Promise.all([runs, this.client.invalidateQueries({ queryKey: keys.monitors, exact: true, refetchType: 'none' }),
        this.client.invalidateQueries({ queryKey: keys.monitor(id), exact: true, refetchType: 'none' })]);
      return;
    }
    let monitor: Monitor | null;
    try {
      monitor = await this.api.monitor(id);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) {
        await Promise.all([runs, this.client.invalidateQueries({ queryKey: keys.monitors, exact: true })]);
        return;
      }
      monitor = null; // deleted
    }
    this.client.setQueryData<Monitor[]>(keys.monitors, (list) => (list ? withMonitor(list, id, monitor) : list));
    if (monitor && this.client.getQueryState(keys.monitor(id))) this.client.setQueryData<Monitor>(keys.monitor(id), monitor);
    if (!monitor) await this.client.invalidateQueries({ queryKey: keys.monitor(id), exact: true });
    await runs;
  }
}
