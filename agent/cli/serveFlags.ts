import { isIPv6 } from 'node:net';
import type { ParseArgsConfig } from 'node:util';
import { parseArgs } from './parseOptions';
import { isWildcard, urlFor } from '../domain/access/reachability';
import { UsageError } from './command';

/*
 * The flags of `cronbeat serve`, read in one place: by serve itself, and by `cronbeat service
 * install`, which checks the flags it writes into the unit and keeps where the agent will answer.
 */

const SERVE_OPTIONS = {
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '8787' },
  'data-dir': { type: 'string' },
  'no-popups': { type: 'boolean', default: false },
  'allow-host': { type: 'string', multiple: true, default: [] as string[] },
  'trust-proxy': { type: 'boolean', default: false },
  'public-url': { type: 'string' },
  'watchdog-url': { type: 'string' },
} satisfies ParseArgsConfig['options'];

/** serve's flags, with --port checked as a number; throws as parseArgs does for an unknown flag. */
export function parseServeFlags(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: SERVE_OPTIONS });
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not "${values.port}".`);
  for (const name of values['allow-host']) checkAllowedHost(name);
  return { ...values, port };
}

/** A DNS name (a trailing dot allowed), an IPv4 address or an IPv6 one, with or without brackets. */
const HOST_NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?)*\.?$/;

/**
 * An --allow-host value is compared with the name in each request's Host: a URL, a port or a
 * wildcard would match no request, and the servers meant to reach the agent would all get 421.
 */
function checkAllowedHost(value: string): void {
  const name = value.trim();
  if (HOST_NAME.test(name) || isIPv6(name.replace(/^\[(.*)\]$/, '$1'))) return;
  const url = /^[a-z][a-z0-9+.-]*:\/\/\[?([^/:\]]*)/i.exec(name);
  if (url) throw new UsageError(`--allow-host takes a host name, not a URL: --allow-host ${url[1] || 'NAME'}.`);
  const withPort = /^(\[[^\]]+\]|[^:]+):\d+$/.exec(name);
  if (withPort) throw new UsageError(`--allow-host takes a host name without a port (it is answered at the agent's own): --allow-host ${withPort[1]}.`);
  if (name.includes('*')) throw new UsageError('--allow-host takes one host name; wildcards are not supported, so give each name its own --allow-host.');
  if (name === '') throw new UsageError('--allow-host needs a host name, such as --allow-host backup-box.');
  throw new UsageError(`--allow-host "${value}" is not a host name.`);
}

/** The address this machine reaches an agent bound to `host` at: loopback for a wildcard. */
export function localUrlOf(host: string, port: number): string {
  return urlFor(isWildcard(host) ? '127.0.0.1' : host.replace(/^\[|\]$/g, ''), port);
}
