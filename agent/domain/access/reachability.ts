import type { NetworkInterfaceInfo } from 'node:os';

/*
 * Which addresses other machines can use to reach the agent. Pure: the interfaces (from
 * os.networkInterfaces()) and the host name are passed in.
 */

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** True when `host` is this machine only (127.0.0.0/8, ::1, localhost): no other machine can connect. */
export function isLoopbackOnly(host: string): boolean {
  const plain = host.toLowerCase().replace(/^\[|\]$/g, '');
  return plain === 'localhost' || plain === '::1' || /^127\./.test(plain);
}

export function isWildcard(host: string): boolean {
  return WILDCARDS.has(host.replace(/^\[|\]$/g, ''));
}

/** This machine's addresses other machines may use: IPv4 first, then global IPv6; never loopback or link-local. */
export function networkAddresses(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>): string[] {
  const all = Object.values(interfaces).flatMap((list) => list ?? []).filter((info) => !info.internal);
  const v4 = all.filter((info) => info.family === 'IPv4').map((info) => info.address);
  const v6 = all.filter((info) => info.family === 'IPv6' && !/^fe80:/i.test(info.address)).map((info) => info.address);
  return [...new Set([...v4, ...v6])];
}

/** A base URL for an address or name (IPv6 in brackets). */
export const urlFor = (address: string, port: number) => `http://${address.includes(':') ? `[${address}]` : address}:${port}`;

/**
 * The base URLs another machine can use: bound to one address, that address; bound to all,
 * each network address and then the host name. Bound to loopback, none work yet: these are the
 * ones that will once the agent listens on all addresses (`cronbeat serve --host 0.0.0.0`).
 */
export function remoteUrls(boundHost: string, port: number, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>, hostName: string): string[] {
  if (!isLoopbackOnly(boundHost) && !isWildcard(boundHost)) return [urlFor(boundHost.replace(/^\[|\]$/g, ''), port)];
  const names = [...networkAddresses(interfaces), ...(hostName && hostName !== 'localhost' ? [hostName.toLowerCase()] : [])];
  return names.map((name) => urlFor(name, port));
}
