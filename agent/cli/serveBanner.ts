import { isLoopbackOnly, isWildcard, remoteUrls, urlFor } from '../domain/access/reachability';
import type { NetworkInterfaceInfo } from 'node:os';

/*
 * What `cronbeat serve` says when it is up: where it listens, a sign-in link for each place the
 * admin may be, and, when other machines can connect, what that exposes and what protects it.
 */

export interface BannerInput {
  host: string;
  port: number;
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>;
  hostName: string;
  /**
   * The sign-in path with its one-time code, such as "/#/sign-in?code=…"; null where the banner goes
   * to the journal (writesToJournal), which then says how to get a link instead.
   */
  signInPath: string | null;
  /** The address the admin opens Cronbeat at (--public-url or the dashboard's setting), behind a proxy; null when none. */
  publicUrl?: string | null;
}

export const EXPOSURE_WARNING = [
  'Warning: this agent listens beyond this machine, so other machines on your networks can connect to it.',
  'They can send pulses to a monitor whose URL they know (its token is the only credential: keep pulse URLs secret)',
  'and can see that Cronbeat runs here. Everything else (the dashboard, the API, crontab alerts) needs an API token',
  'or a one-time sign-in link; wrong ones are throttled, and requests naming a host other than this machine get 421',
  '(add names with --allow-host). The traffic is plain HTTP, tokens included: do this on a network you trust, or put',
  'a TLS proxy (Caddy, nginx) in front. To keep the agent to this machine, leave out --host.',
].join('\n');

/**
 * The one line for --trust-proxy on an address other machines reach: a client that gets to the
 * port without going through the proxy writes X-Forwarded-For and -Proto itself. Nothing on
 * loopback (only this machine's proxy can connect) or without --trust-proxy.
 */
export function trustProxyWarning(host: string, port: number, trustProxy: boolean): string | null {
  if (!trustProxy || isLoopbackOnly(host)) return null;
  return (
    `Warning: --trust-proxy while listening beyond this machine (--host ${host}): any client that reaches port ${port} directly, not through your proxy, ` +
    'can forge X-Forwarded-For and X-Forwarded-Proto (the address the failed-key limiter charges, the scheme of links). ' +
    'Listen on loopback (--host 127.0.0.1) with the proxy on this machine, or let only the proxy reach the port (firewall; Docker: publish 127.0.0.1:${port}:${port}).'
  );
}

/** What `serve` says instead of a sign-in link when its output goes to the journal. */
export const SIGN_IN_BY_COMMAND =
  'Open the dashboard: `cronbeat signin` on this machine, as the user the agent runs as, prints a sign-in link (none is written to the journal, which others may read).';

/**
 * Whether standard output is the systemd journal: systemd names the journal stream it connected in
 * JOURNAL_STREAM ("DEVICE:INODE"), and a process whose output was redirected since has another one.
 * A sign-in link written there would be readable by every member of the journal's groups (adm,
 * systemd-journal), not only by the agent's owner, for the quarter of an hour it works.
 */
export function writesToJournal(journalStream: string | undefined, stdout: { dev: bigint; ino: bigint } | null): boolean {
  if (!journalStream || !stdout) return false;
  return journalStream === `${stdout.dev}:${stdout.ino}`;
}

const where = (label: string) => `  ${label}:`.padEnd(24);

/**
 * Lines for standard output and standard error. With a public URL (a TLS proxy in front), a link
 * there too: the one an admin elsewhere can open, which the listening address often is not.
 */
export function serveBanner(input: BannerInput): { out: string[]; err: string[] } {
  const { host, port, signInPath } = input;
  // The URL for this machine itself: loopback works when bound to it or to every address.
  const bare = host.replace(/^\[|\]$/g, '');
  const local = isWildcard(host) ? urlFor('127.0.0.1', port) : isLoopbackOnly(host) ? urlFor(bare, port) : null;
  const remote = isLoopbackOnly(host) ? [] : remoteUrls(host, port, input.interfaces, input.hostName);
  const once = 'link works once, for 15 minutes';
  const out = [`Cronbeat listening on ${local ?? remote[0]}`];
  const places: [string, string][] = [];
  if (local) places.push(['on this machine', local]);
  if (remote.length > 0) {
    if (local) out.push(`Other machines reach it at: ${remote.join(', ')}`);
    places.push(['from another machine', remote[0]!]);
  } else if (isWildcard(host)) {
    out.push('Other machines: this machine has no network address right now.');
  }
  if (input.publicUrl) places.push(['at the public URL', input.publicUrl.replace(/\/+$/, '')]);
  if (signInPath === null) out.push(SIGN_IN_BY_COMMAND);
  else if (places.length === 1) out.push(`Open the dashboard (${once}): ${places[0]![1]}${signInPath}`);
  else out.push(`Open the dashboard (${once}; use the line for where you sit):`, ...places.map(([label, base]) => `${where(label)}${base}${signInPath}`));
  return { out, err: remote.length === 0 && local && !isWildcard(host) ? [] : [EXPOSURE_WARNING] };
}
