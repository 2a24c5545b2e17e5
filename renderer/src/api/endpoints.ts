import type { SettingsPatch, WireSettings } from '../../../agent/contract/settings';
import type { KeyInput, WireKey, WireNewKey } from '../../../agent/contract/keys';
import type { MaintenanceWindowInput, MaintenanceWindowResource } from '../../../agent/contract/maintenanceWindows';
import type { WireNewSession, WireSession } from '../../../agent/contract/session';
import { request, type Credentials } from './client';
import type { AgentReach, AppNotification, Certificate, Channel, ChannelTestResult, Delivery, Monitor, Page, Pulse, ReportPreview, Routed, Server, ServerAlert, ServerWatcher } from './types';

export interface NewMonitor {
  name: string;
  timezone: string;
  schedule: string;
  duration: number;
  project_id?: number | null;
}

export interface NewServer {
  name: string;
  ip_address: string;
  identifier: string;
}

export interface NewCertificate {
  hostname: string;
  port?: number;
  warn_days?: number;
}

/** How the agent's machine runs the cronbeat CLI (GET /api/cli). */
export interface CliCommand {
  command: string;
  on_path: boolean;
}

/** A channel as the forms send it: settings of its kind, quiet hours or null. */
export interface ChannelBody {
  name?: string;
  kind?: string;
  settings?: Record<string, unknown>;
  quiet_hours?: { start: string; end: string; timezone: string } | null;
  remind_every_hours?: number | null;
}

/** What alerts which channels: the PATCH routes of monitors, servers and certificates. */
export type RoutedPath = 'monitors' | 'servers' | 'ssl-certificates';

/** One entry of GET /api/monitors/{id}/changes: who changed which settings, from what to what. */
export interface MonitorChange {
  id: number;
  at: string;
  source: 'line' | 'api';
  changes: Record<string, { from: unknown; to: unknown }>;
}

/** Every call the dashboard makes, bound to one set of credentials. */
export function createApi(credentials: Credentials) {
  const get = <T>(path: string, signal?: AbortSignal) => request<T>(credentials, 'GET', path, undefined, signal);
  const send = <T>(method: string, path: string, body?: unknown) => request<T>(credentials, method, path, body);
  return {
    credentials,
    monitors: (signal?: AbortSignal) => get<Monitor[]>('/api/monitors', signal),
    monitor: (id: number, signal?: AbortSignal) => get<Monitor>(`/api/monitors/${id}`, signal),
    createMonitor: (body: NewMonitor) => send<Monitor>('POST', '/api/monitors', body),
    deleteMonitor: (id: number) => send<void>('DELETE', `/api/monitors/${id}`),
    editMonitor: (id: number, body: Partial<NewMonitor>) => send<Monitor>('PATCH', `/api/monitors/${id}`, body),
    /** How long a started run may take before it is stuck, in minutes; null for no limit. */
    setMaxRuntime: (id: number, maxRuntime: number | null) => send<Monitor>('PUT', `/api/monitors/${id}/max-runtime`, { max_runtime: maxRuntime }),
    /** How many failed or missed runs in a row alert (PUT …/alert-after: its own request, as the spec's monitor body stays the spec's). */
    setAlertAfter: (id: number, alertAfter: number) => send<Monitor>('PUT', `/api/monitors/${id}/alert-after`, { alert_after: alertAfter }),
    /** Pauses until resumed, or snoozes until `until` (an ISO time). */
    pauseMonitor: (id: number, until?: string) => send<Monitor>('POST', `/api/monitors/${id}/pause`, until ? { until } : {}),
    resumeMonitor: (id: number) => send<Monitor>('POST', `/api/monitors/${id}/resume`),
    /** A new pulse token; the old one is refused from then on. */
    rotateMonitorToken: (id: number) => send<Monitor>('POST', `/api/monitors/${id}/token`),
    pulses: (id: number, page: number, perPage: number, signal?: AbortSignal) =>
      get<Page<Pulse>>(`/api/monitors/${id}/pulses?page=${page}&per_page=${perPage}`, signal),

    /**
     * Every maintenance window, page after page of 100 (windows over stay listed, so they add up
     * past one page, oldest first: the newest were the ones left out); `monitorId` keeps those
     * covering it, `active` those under way now.
     */
    maintenanceWindows: async (filter: { monitorId?: number; active?: boolean } = {}, signal?: AbortSignal) => {
      const query = new URLSearchParams({ per_page: '100' });
      if (filter.monitorId !== undefined) query.set('monitor_id', String(filter.monitorId));
      if (filter.active !== undefined) query.set('active', String(filter.active));
      const windows: MaintenanceWindowResource[] = [];
      for (let page = 1; ; page++) {
        query.set('page', String(page));
        const one = await get<Page<MaintenanceWindowResource>>(`/api/maintenance-windows?${query}`, signal);
        windows.push(...one.data);
        if (page >= one.last_page || one.data.length === 0) return windows;
      }
    },
    createMaintenanceWindow: (body: MaintenanceWindowInput) => send<MaintenanceWindowResource>('POST', '/api/maintenance-windows', body),
    deleteMaintenanceWindow: (id: number) => send<void>('DELETE', `/api/maintenance-windows/${id}`),

    servers: (signal?: AbortSignal) => get<Server[]>('/api/servers', signal),
    server: (id: number, signal?: AbortSignal) => get<Server>(`/api/servers/${id}`, signal),
    serverAlerts: (id: number, signal?: AbortSignal) => get<ServerAlert[]>(`/api/servers/${id}/alerts`, signal),
    serverWatchers: (id: number, signal?: AbortSignal) => get<ServerWatcher[]>(`/api/servers/${id}/watchers`, signal),
    /** Forgets one watcher (`''`: the unnamed one of an older cronbeat), so a watcher stopped for good no longer keeps its server quiet. */
    forgetServerWatcher: (id: number, watcher: string) =>
      send<void>('DELETE', `/api/servers/${id}/watchers?${new URLSearchParams({ watcher })}`),
    createServer: (body: NewServer) => send<Server>('POST', '/api/servers', body),
    deleteServer: (id: number) => send<void>('DELETE', `/api/servers/${id}`),
    editServer: (id: number, body: Partial<NewServer>) => send<Server>('PATCH', `/api/servers/${id}`, body),

    certificates: (signal?: AbortSignal) => get<Certificate[]>('/api/ssl-certificates', signal),
    createCertificate: (body: NewCertificate) => send<Certificate>('POST', '/api/ssl-certificates', body),
    checkCertificate: (id: number) => send<Certificate>('POST', `/api/ssl-certificates/${id}/check`),
    deleteCertificate: (id: number) => send<void>('DELETE', `/api/ssl-certificates/${id}`),

    /** Every kind (the API lists only the spec's two unless asked); `unread` for unread ones only. */
    notifications: (page: number, perPage: number, signal?: AbortSignal, options: { unread?: boolean } = {}) =>
      get<Page<AppNotification>>(
        `/api/notifications?page=${page}&per_page=${perPage}&kinds=all${options.unread ? '&unread=1' : ''}`,
        signal,
      ),
    /** How many notifications of every kind there are (`unread`: unread ones), without listing them. */
    notificationCount: (signal?: AbortSignal, options: { unread?: boolean } = {}) =>
      get<{ total: number }>(`/api/notifications/count?kinds=all${options.unread ? '&unread=1' : ''}`, signal),
    markNotificationRead: (id: string, read: boolean) => send<AppNotification>('PATCH', `/api/notifications/${id}`, { read }),
    markAllNotificationsRead: () => send<{ marked: number }>('POST', '/api/notifications/read'),

    cli: (signal?: AbortSignal) => get<CliCommand>('/api/cli', signal),
    channels: (signal?: AbortSignal) => get<Channel[]>('/api/channels', signal),
    createChannel: (body: ChannelBody) => send<Channel & { generated_secret?: string }>('POST', '/api/channels', body),
    updateChannel: (id: number, body: ChannelBody) => send<Channel>('PATCH', `/api/channels/${id}`, body),
    deleteChannel: (id: number) => send<void>('DELETE', `/api/channels/${id}`),
    testChannel: (id: number) => send<ChannelTestResult>('POST', `/api/channels/${id}/test`),
    reportPreview: (id: number, signal?: AbortSignal) => get<ReportPreview>(`/api/channels/${id}/report-preview`, signal),
    deliveries: (notificationId: string, signal?: AbortSignal) =>
      get<Delivery[]>(`/api/notifications/${encodeURIComponent(notificationId)}/deliveries`, signal),
    routedChannels: (path: RoutedPath, id: number, signal?: AbortSignal) => get<Routed>(`/api/${path}/${id}`, signal),
    setChannelIds: (path: RoutedPath, id: number, channelIds: number[] | null) =>
      send<Routed>('PATCH', `/api/${path}/${id}`, { channel_ids: channelIds }),

    /** The key in use: its company, whether it is a sign-in session, and its scope (full or read-only). */
    session: (signal?: AbortSignal) => get<WireSession>('/api/session', signal),
    signOut: () => send<void>('DELETE', '/api/session'),
    agent: (signal?: AbortSignal) => get<AgentReach>('/api/agent', signal),
    settings: (signal?: AbortSignal) => get<WireSettings>('/api/settings', signal),
    saveSettings: (body: SettingsPatch) => send<WireSettings>('PATCH', '/api/settings', body),
    keys: (signal?: AbortSignal) => get<WireKey[]>('/api/keys', signal),
    monitorChanges: (id: number, signal?: AbortSignal) => get<MonitorChange[]>(`/api/monitors/${id}/changes`, signal),
    createKey: (body: KeyInput) => send<WireNewKey>('POST', '/api/keys', body),
    revokeKey: (id: number) => send<void>('DELETE', `/api/keys/${id}`),
  };
}

export type Api = ReturnType<typeof createApi>;

/** Trades a one-time sign-in code for a session token. */
export function redeemSignInCode(code: string): Promise<WireNewSession> {
  return request<WireNewSession>(null, 'POST', '/api/session', { code });
}

/** Checks that a pasted API token is accepted before keeping it. */
export async function verifyToken(token: string): Promise<void> {
  await request<unknown>({ base: '', token }, 'GET', '/api/session');
}
