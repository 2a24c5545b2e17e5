import type { MonitorChanges, MonitorInput, MonitorResource, MonitorView } from '../../contract/monitors';
import type { ServerAlertInput, ServerFields } from '../../contract/servers';
import { fitAlertCommand, fitAlertUsername } from '../../domain/servers/jobChanges';
import type { MaintenanceWindowInput, MaintenanceWindowResource } from '../../contract/maintenanceWindows';
import type { WireLineKey } from '../../contract/linePulses';
import { requestOnce, requestWithRetry, type HttpOutcome, type HttpRequest } from './http';
import { shownUrl } from './baseUrl';

/** The whole monitor list comes in one answer: room for tens of thousands of monitors, still a bound. */
export const MAX_LIST_BYTES = 64 * 1024 * 1024;

export type { MonitorChanges, MonitorInput, ServerAlertInput };

/** The fields of a job monitor the CLI reads (spec section 2.2). */
export type MonitorSummary = Pick<MonitorResource, 'id' | 'name' | 'token' | 'schedule' | 'timezone' | 'duration'>;

/**
 * A monitor as the API shows it, with Cronbeat's read-only fields (docs/api.md); `slug` and `tags`
 * are absent from older agents, `token` and `pulse_url` null for a read-only key.
 */
export type MonitorDetails = Omit<MonitorView, 'slug' | 'tags'> & Partial<Pick<MonitorView, 'slug' | 'tags'>>;

/** An API call that did not succeed; `retryable` when the agent could not be reached. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    /** Which call failed, as "POST /api/servers/alert": what a caller decides by, never the message's words. */
    readonly request?: string,
  ) {
    super(message);
  }
}

/** The spec's API (Bearer auth) for the operations the CLI needs. */
export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiToken: string,
  ) {}

  /** POST /api/keys (a full key only): a new key, its secret shown this once. */
  createKey(name: string, scope: 'full' | 'read-only' | 'ping' | 'badge'): Promise<{ id: number; key: string }> {
    return this.call<{ id: number; key: string }>('POST', '/api/keys', { name, scope });
  }

  createMonitor(input: MonitorInput): Promise<MonitorSummary> {
    return this.call<MonitorSummary>('POST', '/api/monitors', input);
  }

  listMonitors(): Promise<MonitorSummary[]> {
    return this.call<MonitorSummary[]>('GET', '/api/monitors', undefined, MAX_LIST_BYTES);
  }

  /** GET /api/monitors, filtered as its query says (status, project_id). */
  monitors(query: Record<string, string> = {}): Promise<MonitorDetails[]> {
    const search = new URLSearchParams(query).toString();
    return this.call<MonitorDetails[]>('GET', `/api/monitors${search ? `?${search}` : ''}`, undefined, MAX_LIST_BYTES);
  }

  monitor(id: number): Promise<MonitorDetails> {
    return this.call<MonitorDetails>('GET', `/api/monitors/${id}`);
  }

  editMonitor(id: number, changes: MonitorChanges): Promise<MonitorDetails> {
    return this.call<MonitorDetails>('PATCH', `/api/monitors/${id}`, changes);
  }

  /** PUT /api/monitors/{id}/alert-after: the failure in a row that alerts. */
  setAlertAfter(id: number, alertAfter: number): Promise<MonitorDetails> {
    return this.call<MonitorDetails>('PUT', `/api/monitors/${id}/alert-after`, { alert_after: alertAfter });
  }

  /** PUT /api/monitors/{id}/max-runtime: the minutes a started run may take before it is stuck (null: no limit). */
  setMaxRuntime(id: number, maxRuntime: number | null): Promise<MonitorDetails> {
    return this.call<MonitorDetails>('PUT', `/api/monitors/${id}/max-runtime`, { max_runtime: maxRuntime });
  }

  /** DELETE /api/monitors/{id}: the monitor and its history. */
  deleteMonitor(id: number): Promise<void> {
    return this.call<void>('DELETE', `/api/monitors/${id}`);
  }

  /** Pauses until resumed, or snoozes until `until` (an API timestamp). */
  pauseMonitor(id: number, until: string | null): Promise<MonitorDetails> {
    return this.call<MonitorDetails>('POST', `/api/monitors/${id}/pause`, until === null ? {} : { until });
  }

  resumeMonitor(id: number): Promise<MonitorDetails> {
    return this.call<MonitorDetails>('POST', `/api/monitors/${id}/resume`);
  }

  /** POST /api/monitors/{id}/token (a full key only): a new pulse token; the old one is refused from then on. */
  rotateMonitorToken(id: number): Promise<MonitorResource> {
    return this.call<MonitorResource>('POST', `/api/monitors/${id}/token`);
  }

  /** Hands the monitor to the line of key `keyId` (PUT /api/monitors/{id}/line-key). */
  handMonitor(id: number, keyId: number): Promise<WireLineKey> {
    return this.call<WireLineKey>('PUT', `/api/monitors/${id}/line-key`, { key_id: keyId });
  }

  /** GET /api/servers?q=: the servers whose name, identifier or address contains `search`. */
  servers(search: string): Promise<Pick<ServerFields, 'identifier'>[]> {
    return this.call<Pick<ServerFields, 'identifier'>[]>('GET', `/api/servers?${new URLSearchParams({ q: search })}`);
  }

  /**
   * POST /api/servers/alert. A cron line longer than an alert holds is sent as its start and its
   * end (fitAlertCommand), a user no name could be with its control characters written out
   * (fitAlertUsername): the same each time, so a retry carries the same alert.
   */
  alertServer(input: ServerAlertInput & Record<string, unknown>, idempotencyKey?: string): Promise<unknown> {
    const fitted = {
      ...input,
      username: fitAlertUsername(input.username),
      command: fitAlertCommand(input.command),
      ...(typeof input.previous_command === 'string' ? { previous_command: fitAlertCommand(input.previous_command) } : {}),
    };
    return this.call('POST', '/api/servers/alert', fitted, undefined, idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey });
  }

  /** The watcher's report (POST /api/servers/heartbeat): 404 for an unknown identifier, 401 for a bad token. */
  serverHeartbeat(input: { server_id: string; interval_seconds: number | null; jobs: number | null; watcher: string }): Promise<unknown> {
    return this.call('POST', '/api/servers/heartbeat', input);
  }

  /** GET /api/maintenance-windows (one page of up to 100), filtered as its query says (monitor_id, active). */
  async maintenanceWindows(query: Record<string, string> = {}): Promise<MaintenanceWindowResource[]> {
    const search = new URLSearchParams({ per_page: '100', ...query }).toString();
    return (await this.call<{ data: MaintenanceWindowResource[] }>('GET', `/api/maintenance-windows?${search}`)).data;
  }

  createMaintenanceWindow(input: MaintenanceWindowInput): Promise<MaintenanceWindowResource> {
    return this.call<MaintenanceWindowResource>('POST', '/api/maintenance-windows', input);
  }

  deleteMaintenanceWindow(id: number): Promise<void> {
    return this.call<void>('DELETE', `/api/maintenance-windows/${id}`);
  }

  /** POST and PATCH are sent once (retrying a create could make two); GET is retried with backoff. */
  private async call<T>(method: HttpRequest['method'], path: string, body?: unknown, maxBytes?: number, headers: Record<string, string> = {}): Promise<T> {
    const request: HttpRequest = {
      maxBytes,
      method,
      url: `${this.baseUrl}${path}`,
      headers: { authorization: `Bearer ${this.apiToken}`, accept: 'application/json', 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    };
    const outcome: HttpOutcome = method === 'GET' ? await requestWithRetry(request) : await requestOnce(request);
    const call = `${method} ${path.split('?')[0]}`;
    if (outcome.kind === 'unreachable') throw new ApiError(outcome.message, true, undefined, call);
    if (outcome.kind === 'rejected') {
      const hint = outcome.status === 401 ? ' (check the API token: `cronbeat token create` makes one)' : '';
      throw new ApiError(`${method} ${path} failed: ${outcome.message}${hint}`, false, outcome.status, call);
    }
    if (!outcome.text) return undefined as T;
    try {
      return JSON.parse(outcome.text) as T;
    } catch {
      // A wrong path (a proxy's sub-path mistyped), a web server or a captive portal: the dashboard's page or another, not the API.
      const type = String(outcome.headers?.['content-type'] ?? 'no content type').split(';')[0];
      throw new ApiError(`${shownUrl(this.baseUrl)} answered ${call} with ${type}, not JSON: no Cronbeat API is there; check --url (or CRONBEAT_URL).`, false, outcome.status, call);
    }
  }
}
