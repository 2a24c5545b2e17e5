import { requestOnce, requestWithRetry, type HttpOutcome, type HttpRequest } from './http';

/** The fields of a job monitor the CLI reads (spec section 2.2). */
export interface MonitorSummary {
  id: number;
  name: string;
  token: string;
  schedule: string;
  timezone: string;
  duration: number;
}

export interface MonitorInput {
  name: string;
  schedule: string;
  timezone: string;
  duration: number;
}

export interface ServerAlertInput {
  username: string;
  server_id: string;
  command: string;
}

/** An API call that did not succeed; `retryable` when the agent could not be reached. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
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

  createMonitor(input: MonitorInput): Promise<MonitorSummary> {
    return this.call<MonitorSummary>('POST', '/api/monitors', input);
  }

  listMonitors(): Promise<MonitorSummary[]> {
    return this.call<MonitorSummary[]>('GET', '/api/monitors');
  }

  alertServer(input: ServerAlertInput & Record<string, unknown>): Promise<unknown> {
    return this.call('POST', '/api/servers/alert', input);
  }

  /** The watcher's report (POST /api/servers/heartbeat): 404 for an unknown identifier, 401 for a bad token. */
  serverHeartbeat(input: { server_id: string; interval_seconds: number | null; jobs: number | null }): Promise<unknown> {
    return this.call('POST', '/api/servers/heartbeat', input);
  }

  /** POST is sent once (retrying a create could make two); GET is retried with backoff. */
  private async call<T>(method: HttpRequest['method'], path: string, body?: unknown): Promise<T> {
    const request: HttpRequest = {
      method,
      url: `${this.baseUrl}${path}`,
      headers: { authorization: `Bearer ${this.apiToken}`, accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    };
    const outcome: HttpOutcome = method === 'GET' ? await requestWithRetry(request) : await requestOnce(request);
    if (outcome.kind === 'unreachable') throw new ApiError(outcome.message, true);
    if (outcome.kind === 'rejected') {
      const hint = outcome.status === 401 ? ' (check the API token: `cronbeat token create` makes one)' : '';
      throw new ApiError(`${method} ${path} failed: ${outcome.message}${hint}`, false, outcome.status);
    }
    return (outcome.text ? JSON.parse(outcome.text) : undefined) as T;
  }
}
