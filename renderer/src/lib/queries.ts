import { queryOptions, type QueryKey } from '@tanstack/react-query';
import type { Api, RoutedPath } from '../api/endpoints';
import type { Monitor } from '../api/types';

/*
 * One cache entry per resource (react-query). Screens that show the same list share its entry, so
 * the monitors screen and the window title's failed count make one request between them; the live
 * stream keeps every entry fresh (lib/liveCache.ts), which is why nothing here goes stale by age.
 */

export const keys = {
  monitors: ['monitors'] as const,
  /** One monitor's row; its runs and last duration live under it. */
  monitor: (id: number) => ['monitor', id] as const,
  monitorPulses: (id: number) => ['monitor', id, 'pulses'] as const,
  servers: ['servers'] as const,
  server: (id: number) => ['server', id] as const,
  certificates: ['certificates'] as const,
  certificate: (id: number) => ['certificate', id] as const,
  notifications: ['notifications'] as const,
  channels: ['channels'] as const,
  deliveries: (notificationId: string) => ['deliveries', notificationId] as const,
  cli: ['cli'] as const,
  agent: ['agent'] as const,
  session: ['session'] as const,
  settings: ['settings'] as const,
  keys: ['keys'] as const,
  maintenanceWindows: ['maintenance-windows'] as const,
};

export const queries = {
  monitors: (api: Api) => queryOptions({ queryKey: keys.monitors, queryFn: ({ signal }) => api.monitors(signal) }),
  monitor: (api: Api, id: number) => queryOptions({ queryKey: keys.monitor(id), queryFn: ({ signal }) => api.monitor(id, signal) }),
  pulses: (api: Api, id: number, page: number, perPage: number) =>
    queryOptions({ queryKey: [...keys.monitorPulses(id), page, perPage], queryFn: ({ signal }) => api.pulses(id, page, perPage, signal) }),
  /** The newest timed run's duration only (not the page it came from), so a long list caches numbers. */
  lastDuration: (api: Api, id: number) =>
    queryOptions({
      queryKey: [...keys.monitorPulses(id), 'last-duration'],
      queryFn: async ({ signal }) => (await api.pulses(id, 1, 20, signal)).data.find((p) => typeof p.duration_ms === 'number')?.duration_ms ?? null,
    }),
  maintenanceWindows: (api: Api) =>
    queryOptions({
      queryKey: keys.maintenanceWindows,
      queryFn: ({ signal }) => api.maintenanceWindows({}, signal),
      // Windows open and close with time, not with events: read again every minute.
      refetchInterval: 60_000,
    }),
  /** Every window covering one monitor, for its run history to mark the pulses that came during one. */
  monitorWindows: (api: Api, id: number) =>
    queryOptions({
      queryKey: [...keys.maintenanceWindows, 'monitor', id, 'all'],
      queryFn: ({ signal }) => api.maintenanceWindows({ monitorId: id }, signal),
    }),
  /** The maintenance under way for one monitor now (the first window's end is what its page says). */
  monitorMaintenance: (api: Api, id: number) =>
    queryOptions({
      queryKey: [...keys.maintenanceWindows, 'monitor', id],
      queryFn: ({ signal }) => api.maintenanceWindows({ monitorId: id, active: true }, signal),
      refetchInterval: 60_000,
    }),
  servers: (api: Api) => queryOptions({ queryKey: keys.servers, queryFn: ({ signal }) => api.servers(signal) }),
  server: (api: Api, id: number) => queryOptions({ queryKey: keys.server(id), queryFn: ({ signal }) => api.server(id, signal) }),
  serverAlerts: (api: Api, id: number) =>
    queryOptions({ queryKey: [...keys.server(id), 'alerts'], queryFn: ({ signal }) => api.serverAlerts(id, signal) }),
  /** Under the server's own entry: the live stream's server.changed (a report, a watcher forgotten) reloads it with the server. */
  serverWatchers: (api: Api, id: number) =>
    queryOptions({ queryKey: [...keys.server(id), 'watchers'], queryFn: ({ signal }) => api.serverWatchers(id, signal) }),
  certificates: (api: Api) => queryOptions({ queryKey: keys.certificates, queryFn: ({ signal }) => api.certificates(signal) }),
  notifications: (api: Api, page: number, perPage: number) =>
    queryOptions({ queryKey: [...keys.notifications, 'page', page, perPage], queryFn: ({ signal }) => api.notifications(page, perPage, signal) }),
  /** How many notifications of every kind are unread: the navigation badge and the window title share it. */
  unreadCount: (api: Api) =>
    queryOptions({
      queryKey: [...keys.notifications, 'unread-count'],
      queryFn: async ({ signal }) => (await api.notificationCount(signal, { unread: true })).total,
    }),
  channels: (api: Api) => queryOptions({ queryKey: keys.channels, queryFn: ({ signal }) => api.channels(signal) }),
  deliveries: (api: Api, notificationId: string) =>
    queryOptions({ queryKey: keys.deliveries(notificationId), queryFn: ({ signal }) => api.deliveries(notificationId, signal) }),
  /** The channels a monitor, server or certificate alerts: read from that resource's own entry. */
  routed: (api: Api, path: RoutedPath, id: number) =>
    queryOptions({ queryKey: routedKey(path, id), queryFn: ({ signal }) => api.routedChannels(path, id, signal) }),
  cli: (api: Api) => queryOptions({ queryKey: keys.cli, queryFn: ({ signal }) => api.cli(signal) }),
  agent: (api: Api) => queryOptions({ queryKey: keys.agent, queryFn: ({ signal }) => api.agent(signal) }),
  /** The key in use and its scope, read once: what the dashboard offers follows it (lib/access.ts). */
  session: (api: Api) => queryOptions({ queryKey: keys.session, queryFn: ({ signal }) => api.session(signal) }),
  settings: (api: Api) => queryOptions({ queryKey: keys.settings, queryFn: ({ signal }) => api.settings(signal) }),
  /** Under the monitor's own entry, so a live change of the monitor refreshes it too. */
  monitorChanges: (api: Api, id: number) =>
    queryOptions({ queryKey: [...keys.monitor(id), 'changes'], queryFn: ({ signal }) => api.monitorChanges(id, signal) }),
  keys: (api: Api) => queryOptions({ queryKey: keys.keys, queryFn: ({ signal }) => api.keys(signal) }),
};

function routedKey(path: RoutedPath, id: number): QueryKey {
  if (path === 'monitors') return keys.monitor(id);
  if (path === 'servers') return keys.server(id);
  return keys.certificate(id);
}

/** The list with one monitor replaced (or added at the end), or without it when `monitor` is null. */
export function withMonitor(list: Monitor[], id: number, monitor: Monitor | null): Monitor[] {
  const index = list.findIndex((m) => m.id === id);
  if (monitor === null) return index < 0 ? list : [...list.slice(0, index), ...list.slice(index + 1)];
  if (index < 0) return [...list, monitor];
  const next = list.slice();
  next[index] = monitor;
  return next;
}
