import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { answerClientErrorsWithJson } from './clientErrors';
import { capConnectionsPerClient, MAX_CONNECTIONS_PER_CLIENT } from './connectionCaps';

/*
 * How long the agent waits for a client. A client that connects and says nothing, or sends its
 * headers or body slowly (by accident or as an attack), is cut off instead of holding a
 * connection and memory; an idle keep-alive connection is closed soon. Server-Sent Events are not
 * affected: the limits cover receiving a request, not sending the response.
 */

export interface HttpTimeouts {
  /** From connecting (a connection that says nothing included) until the request's headers have arrived. */
  headersMs: number;
  /** Until the whole request, body included, has arrived. */
  requestMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveMs: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 };

/** HTTP/1.1 requires a Host header and a server must refuse a request without one (RFC 9112 §3.2), in our JSON shape. */
function refuseWithoutHost(response: ServerResponse): void {
  const body = JSON.stringify({ message: 'The request has no Host header, which HTTP/1.1 requires.' });
  response.writeHead(400, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' }).end(body);
}

/**
 * A node:http server enforcing `timeouts` around `handler`, and at most MAX_CONNECTIONS_PER_CLIENT
 * connections from any one other machine unless `behindProxy`: then every client comes through
 * the proxy, whose address would cap them all together, and the proxy bounds its own clients.
 */
export function createHttpServer(timeouts: Partial<HttpTimeouts>, handler: RequestListener, behindProxy = false): Server {
  const { headersMs, requestMs, keepAliveMs } = { ...DEFAULT_HTTP_TIMEOUTS, ...timeouts };
  const server = createServer(
    {
      headersTimeout: Math.min(headersMs, requestMs),
      requestTimeout: requestMs,
      keepAliveTimeout: keepAliveMs,
      // Node checks the two limits above on this period (30 s by default, which would stretch them).
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersMs / 4))),
      // Node would refuse an HTTP/1.1 request without Host with a bare 400 and no body; answered below instead.
      requireHostHeader: false,
    },
    (request, response) => (request.httpVersion === '1.1' && request.headers.host === undefined ? refuseWithoutHost(response) : handler(request, response)),
  );
  answerClientErrorsWithJson(server);
  if (!behindProxy) capConnectionsPerClient(server, MAX_CONNECTIONS_PER_CLIENT);
  return server;
}
