/*
 * Which proxy a request to an agent goes through, read from the environment as curl reads it:
 * `https_proxy`/`HTTPS_PROXY` for https:// URLs (the lower-case name first), `http_proxy` alone
 * for http:// (curl ignores HTTP_PROXY: a CGI program gets a request's `Proxy:` header under that
 * name), none for a host `no_proxy`/`NO_PROXY` names, and never one for this machine itself
 * (localhost, 127.0.0.0/8, ::1), as Go's rule has it: a job pinging the desktop app's agent on
 * 127.0.0.1 must not go out to a proxy and back. Only an http:// proxy is spoken through: one of
 * another kind (socks5://, which curl speaks and this does not) leaves the request going straight,
 * as it went before proxies were read, rather than failing every pulse of a job machine that sets
 * one for its other tools.
 */

import { ipVersion } from './ipAddress';

type Env = Readonly<Record<string, string | undefined>>;

/** The first of `names` set to something, trimmed; undefined when none is. */
function firstSet(env: Env, names: string[]): string | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}

/** A host name without brackets or a trailing dot, lower case. */
const bare = (host: string) => host.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (ipVersion(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '0:0:0:0:0:0:0:1';
}

/** An IPv4 address as a number; null for anything else. */
function ipv4Number(text: string): number | null {
  if (ipVersion(text) !== 4) return null;
  return text.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

/** Whether one entry of no_proxy covers `host` at `port`: a name and its subdomains, `.name` or `*.name`, an IP, an IPv4 range (10.0.0.0/8), each with an optional port. */
function covers(entry: string, host: string, port: string): boolean {
  const cidr = /^(\d+\.\d+\.\d+\.\d+)\/(\d{1,2})$/.exec(entry);
  if (cidr) {
    const [base, address, bits] = [ipv4Number(cidr[1]), ipv4Number(host), Number(cidr[2])];
    if (base === null || address === null || bits > 32) return false;
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return ((base & mask) >>> 0) === ((address & mask) >>> 0);
  }
  const withPort = /^(\[[^\]]+\]|[^:]+|[0-9a-f:]+)(?::(\d+))?$/i.exec(entry);
  const [name, entryPort] = withPort && !(ipVersion(entry) === 6) ? [bare(withPort[1]), withPort[2]] : [bare(entry), undefined];
  if (entryPort !== undefined && entryPort !== port) return false;
  const domain = name.replace(/^\*?\./, '');
  if (domain === '') return false;
  return host === domain || host.endsWith(`.${domain}`);
}

/**
 * The http:// proxy for `target` (its URL), or null for a direct connection. A proxy written
 * without a scheme (`proxy:3128`, as many set it) is read as http://.
 */
export function proxyFor(target: URL, env: Env): URL | null {
  const host = bare(target.hostname);
  if (isLoopback(host)) return null;
  const value = target.protocol === 'https:' ? firstSet(env, ['https_proxy', 'HTTPS_PROXY']) : firstSet(env, ['http_proxy']);
  if (!value) return null;
  const noProxy = firstSet(env, ['no_proxy', 'NO_PROXY']) ?? '';
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  const entries = noProxy.split(/[\s,]+/).filter(Boolean);
  if (entries.includes('*') || entries.some((entry) => covers(entry.toLowerCase(), host, port))) return null;
  try {
    const proxy = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    return proxy.protocol === 'http:' ? proxy : null;
  } catch {
    return null;
  }
}
