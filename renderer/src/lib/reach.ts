import type { AgentReach } from '../api/types';

export interface WatchTarget {
  /** The agent URL to put in a command run on another machine. */
  url: string;
  /** False when that URL will only work once the agent listens beyond this machine. */
  reachable: boolean;
}

const isLoopbackHost = (hostname: string) => hostname === 'localhost' || hostname === '[::1]' || /^127\./.test(hostname);

/**
 * Which agent URL a server should use. A page opened from another machine already uses one that
 * works; otherwise the agent's first address for other machines (null until it is known).
 */
export function watchTarget(reach: AgentReach | undefined, pageUrl: string): WatchTarget | null {
  const page = new URL(pageUrl);
  if (!isLoopbackHost(page.hostname)) return { url: page.origin, reachable: true };
  if (!reach) return null;
  const url = reach.remote_urls[0] ?? `http://THIS-MACHINE:${reach.port}`;
  return { url, reachable: !reach.loopback_only };
}
