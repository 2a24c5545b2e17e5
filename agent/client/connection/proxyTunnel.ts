import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ipVersion } from '../../domain/net/ipAddress';
import { proxyFor } from '../../domain/net/proxyEnv';
import { decodeUrlPart } from '../../domain/net/urlCredentials';

/*
 * Requests to an agent through the proxy the environment names (agent/domain/net/proxyEnv.ts), as
 * curl sends them: an http:// URL asked of the proxy in full, an https:// one through a CONNECT
 * tunnel, so TLS (and the check of the agent's certificate) stays end to end. No proxy: straight.
 */

/** How long the proxy has to open the tunnel; the request's own timeout counts from then on. */
const TUNNEL_TIMEOUT_MS = 5_000;
/** The most of the proxy's answer to CONNECT that is read: a status line and a few headers. */
const MAX_TUNNEL_HEAD = 16 * 1024;

export type OpenRequest = (options: { method: string; headers: Record<string, string> }, onResponse: (response: IncomingMessage) => void) => ClientRequest;

/** What opens requests to `url`: straight to it, or through the environment's proxy. */
export async function opener(url: URL, env: NodeJS.ProcessEnv = process.env): Promise<OpenRequest> {
  const proxy = proxyFor(url, env);
  const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  if (!proxy) return ({ method, headers }, onResponse) => request(url, { method, headers, agent: false }, onResponse);
  const proxyAuth: Record<string, string> = proxy.username
    ? { 'proxy-authorization': `Basic ${Buffer.from(`${decodeUrlPart(proxy.username)}:${decodeUrlPart(proxy.password)}`).toString('base64')}` }
    : {};
  // The agent's own credentials (a proxy's basic auth in front of it) go in Authorization, never in the line the proxy logs.
  const auth = url.username ? `${decodeUrlPart(url.username)}:${decodeUrlPart(url.password)}` : undefined;
  if (url.protocol === 'http:') {
    const target = `${url.protocol}//${url.host}${url.pathname}${url.search}`;
    return ({ method, headers }, onResponse) =>
      request({ host: proxy.hostname.replace(/^\[|\]$/g, ''), port: Number(proxy.port || 80), method, path: target, auth, headers: { ...headers, host: url.host, ...proxyAuth }, agent: false }, onResponse);
  }
  const [net, tls] = await Promise.all([import('node:net'), import('node:tls')]);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const where = `${url.hostname}:${url.port || 443}`;
  return ({ method, headers }, onResponse) =>
    request(
      {
        host,
        port: Number(url.port || 443),
        method,
        path: `${url.pathname}${url.search}`,
        auth,
        headers,
        createConnection: (_options: unknown, done: (error: Error | null, socket: Duplex) => void) => {
          const socket = net.connect(Number(proxy.port || 80), proxy.hostname.replace(/^\[|\]$/g, ''));
          tunnel(socket, proxy, where, proxyAuth, (error) => {
            if (error) return done(error, socket);
            done(null, tls.connect({ socket, servername: ipVersion(host) === 0 ? host : undefined }));
          });
          return undefined;
        },
      },
      onResponse,
    );
}

/** Asks the proxy on `socket` for a tunnel to `where`; `done` once it is open, or with why not. */
function tunnel(socket: Socket, proxy: URL, where: string, proxyAuth: Record<string, string>, done: (error: Error | null) => void): void {
  let head = Buffer.alloc(0);
  let settled = false;
  const settle = (error: Error | null) => {
    if (settled) return;
    settled = true;
    socket.off('data', onData);
    socket.off('error', onError);
    socket.off('close', onClose);
    socket.setTimeout(0);
    if (error) socket.destroy();
    done(error);
  };
  const onError = (error: NodeJS.ErrnoException) => settle(new Error(`cannot reach the proxy ${proxy.host} (${error.code ?? error.message})`));
  const onClose = () => settle(new Error(`the proxy ${proxy.host} closed the connection before opening a tunnel to ${where}`));
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end < 0) {
      if (head.length > MAX_TUNNEL_HEAD) settle(new Error(`the proxy ${proxy.host} answered CONNECT with no end to its headers`));
      return;
    }
    const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1').replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
    if (!/^HTTP\/1\.[01] 2\d\d\b/.test(statusLine)) return settle(new Error(`the proxy ${proxy.host} refused a tunnel to ${where}: ${statusLine}`));
    settle(null);
  };
  socket.on('data', onData);
  socket.on('error', onError);
  socket.on('close', onClose);
  socket.setTimeout(TUNNEL_TIMEOUT_MS, () => settle(new Error(`the proxy ${proxy.host} did not open a tunnel to ${where} within ${TUNNEL_TIMEOUT_MS / 1000} s`)));
  socket.once('connect', () => {
    const lines = [`CONNECT ${where} HTTP/1.1`, `Host: ${where}`, ...Object.entries(proxyAuth).map(([name, value]) => `${name}: ${value}`)];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}
