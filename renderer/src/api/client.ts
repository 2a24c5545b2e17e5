/** A small fetch wrapper: Bearer auth, JSON, and the API's Laravel-style errors as ApiError. */
import { agentAnswered, agentUnreachable } from '../lib/reachability';

export interface Credentials {
  /** Origin of the agent, "" for the page's own origin. */
  base: string;
  token: string;
}

/**
 * Where the page's own agent answers (credentials with base ""): the page's origin and folder,
 * "https://example.com/cronbeat" when a proxy serves the dashboard under a path prefix.
 */
export function pageAgentBase(): string {
  return `${window.location.origin}${window.location.pathname.replace(/\/[^/]*$/, '')}`;
}

/** The address of `path` ("/api/…") on the agent of `credentials`. */
export function agentUrl(credentials: Credentials | null, path: string): string {
  return `${credentials?.base || pageAgentBase()}${path}`;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** Per-field messages of a 422, e.g. { schedule: ["…"] }. */
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message);
  }

  /** The first message for a field, or undefined when the field is fine. */
  fieldError(field: string): string | undefined {
    return this.fieldErrors[field]?.[0];
  }
}

/** Thrown for a 401, so the app can send the user back to sign in. */
export class UnauthenticatedError extends ApiError {}

let onUnauthenticated: (token: string) => void = () => {};

/** Registers what happens when any request answers 401 (the app signs out), given the key that was refused. */
export function setUnauthenticatedHandler(handler: (token: string) => void): void {
  onUnauthenticated = handler;
}

/** A request outside `request` (the live stream) was answered 401: the same as any request's. */
export function refusedCredentials(credentials: Credentials): void {
  onUnauthenticated(credentials.token);
}

async function errorFrom(response: Response): Promise<ApiError> {
  let body: { message?: unknown; errors?: unknown } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // Not JSON (a proxy page, a crash): fall back to the status text below.
  }
  const message =
    typeof body.message === 'string' && body.message ? body.message : `The agent answered ${response.status} ${response.statusText}`.trim();
  const errors = body.errors && typeof body.errors === 'object' ? (body.errors as Record<string, string[]>) : {};
  return response.status === 401 ? new UnauthenticatedError(message, 401) : new ApiError(message, response.status, errors);
}

export async function request<T>(
  credentials: Credentials | null,
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (credentials?.token) headers.Authorization = `Bearer ${credentials.token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(agentUrl(credentials, path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: 'no-store',
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    agentUnreachable();
    throw new ApiError('Cannot reach the Cronbeat agent. Is it running?', 0);
  }
  agentAnswered();
  if (!response.ok) {
    const error = await errorFrom(response);
    if (error instanceof UnauthenticatedError && credentials) onUnauthenticated(credentials.token);
    throw error;
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
