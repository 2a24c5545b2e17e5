import type { ServerOptions } from 'node:http';

/*
 * How long the agent waits for a client. A client that sends its headers or body slowly (by
 * accident or as an attack) is cut off instead of holding a connection and memory; an idle
 * keep-alive connection is closed soon. Server-Sent Events are not affected: the limits cover
 * receiving the request, not sending the response.
 */

export interface HttpTimeouts {
  /** Until the request's headers have arrived. */
  headersMs: number;
  /** Until the whole request, body included, has arrived. */
  requestMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

/** node:http server options enforcing `timeouts`, checked often enough to act on time. */
export function httpServerOptions(timeouts: Partial<HttpTimeouts> = {}): ServerOptions {
  const { headersMs, requestMs, keepAliveMs } = { ...DEFAULT_HTTP_TIMEOUTS, ...timeouts };
  return {
    headersTimeout: Math.min(headersMs, requestMs),
    requestTimeout: requestMs,
    keepAliveTimeout: keepAliveMs,
    // Node checks the two limits above on this period (30 s by default, which would triple them).
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersMs / 4))),
  };
}
