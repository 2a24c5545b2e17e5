import { hostname } from 'node:os';
import type { Middleware } from 'koa';
import { HttpError } from './errors';
import { publicHostName } from '../../domain/access/publicUrl';

/*
 * DNS rebinding guard. A hostile page can point its own domain at 127.0.0.1 and then talk to the
 * agent as "same origin"; the browser still sends the hostile name in Host. So the agent answers
 * only to names that mean this machine, with the port it listens on: localhost, 127.0.0.1, [::1],
 * the address it was bound to, and (bound to a wildcard such as 0.0.0.0) the address the
 * connection arrived on and this machine's host name; plus any name given with --allow-host
 * (the DNS name other machines use for this one). Pulse URLs are exempt: they answer any
 * origin anyway (their token is the secret) and jobs on other servers may use any DNS name.
 * So is /api/health, which holds no data and is asked by load balancers under any name.
 */

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** An address as it appears in a Host header: IPv6 in brackets, IPv4-mapped IPv6 unwrapped, lower case. */
export function hostForm(address: string): string {
  const plain = address.toLowerCase().replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, '$1');
  return plain.includes(':') ? `[${plain}]` : plain;
}

/** Splits a Host header into name and port (80 when absent, as HTTP says); null when malformed. */
export function parseHostHeader(header: string): { name: string; port: number } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]\s]+)(?::(\d{1,5}))?$/i.exec(header.trim());
  if (!match) return null;
  return { name: match[1].toLowerCase().replace(/\.$/, ''), port: match[2] === undefined ? 80 : Number(match[2]) };
}

/** The names this agent answers to on a connection that arrived at `localAddress`, when bound to `boundHost`. */
export function allowedHostNames(boundHost: string, localAddress: string | undefined, extra: string[] = []): Set<string> {
  const names = new Set([...LOOPBACK_NAMES, ...extra]);
  if (WILDCARDS.has(boundHost)) {
    if (localAddress) names.add(hostForm(localAddress));
    names.add(hostname().toLowerCase());
  } else {
    names.add(hostForm(boundHost));
  }
  return names;
}

export function isPulsePath(path: string): boolean {
  return path.startsWith('/api/pulse/');
}

/**
 * Paths any Host may reach: pulse URLs (their token is the secret), badges (their badge key is:
 * image proxies and shields.io fetch them under whatever name the README used) and the
 * data-free health check.
 */
function answersAnyHost(path: string): boolean {
  return isPulsePath(path) || path.startsWith('/api/badges/') || path === '/api/health';
}

/**
 * The public URL's host (serve --public-url, or the dashboard's setting) counts at any port, as a
 * proxied name does: the admin chose that name, and a rebinding page cannot send it.
 */
function isPublicHost(name: string, publicUrl: string | null): boolean {
  return publicUrl !== null && hostForm(publicHostName(publicUrl).replace(/^\[|\]$/g, '')) === name;
}

/**
 * Refuses (421) a request whose Host is not this machine at the port the connection arrived on.
 * Behind a reverse proxy (`behindProxy`, serve --trust-proxy) a name given with --allow-host
 * counts at any port: the proxy passes on the public name with its own port (443), and it only
 * forwards the names it serves, so the rebinding guard still holds for everything else.
 */
export function hostGuard(boundHost: string, allowedHosts: string[] = [], behindProxy = false, publicUrl: () => string | null = () => null): Middleware {
  const bound = boundHost.toLowerCase().replace(/^\[|\]$/g, '');
  const extra = allowedHosts.map((name) => hostForm(name.trim().replace(/^\[|\]$/g, '').replace(/\.$/, '')));
  const proxied = new Set(behindProxy ? extra : []);
  return async (ctx, next) => {
    if (answersAnyHost(ctx.path)) return next();
    const { localAddress, localPort } = ctx.req.socket;
    const host = parseHostHeader(ctx.req.headers.host ?? '');
    const answered =
      host !== null &&
      (proxied.has(host.name) || (host.port === localPort && allowedHostNames(bound, localAddress, extra).has(host.name)) || isPublicHost(host.name, publicUrl()));
    if (!answered) throw new HttpError(421, refusal(ctx.req.headers.host ?? '', host, localPort, extra, allowedHostNames(bound, localAddress, extra)));
    return next();
  };
}

/*
 * What a refused Host is told. A hostile page learns nothing from it it could use; a person who
 * typed a name (from another machine, or a proxy they set up) learns the flag that lets it in,
 * rather than an advice to use 127.0.0.1, which does not work from their laptop.
 */
function refusal(header: string, host: { name: string; port: number } | null, localPort: number | undefined, given: string[], known: Set<string>): string {
  if (host && given.includes(host.name)) {
    return `This agent answers to "${host.name}" only at port ${localPort}, the one it listens on. Behind a reverse proxy, which sends its own port, start it with --trust-proxy too.`;
  }
  const local = `This agent does not answer to the host "${header.slice(0, 100)}". Use http://127.0.0.1:${localPort} or http://localhost:${localPort} on this machine`;
  const name = host?.name.replace(/^\[|\]$/g, '') ?? '';
  // Only a name --allow-host would take is suggested (a known one was refused for its port).
  if (!host || known.has(host.name) || name.length > 100 || !/^[a-z0-9.:-]+$/.test(name)) return `${local}.`;
  return `${local}; to reach it as ${name} (from other machines, or through a reverse proxy), start it with --allow-host ${name}.`;
}
