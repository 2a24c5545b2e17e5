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
  return { ...values, port };
}

/** The address this machine reaches an agent bound to `host` at: loopback for a wildcard. */
export function localUrlOf(host: string, port: number): string {
  return urlFor(isWildcard(host) ? '127.0.0.1' : host.replace(/^\[|\]$/g, ''), port);
}
