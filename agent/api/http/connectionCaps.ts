import type { Server } from 'node:http';
import { clientKey } from './authLimiter';

/*
 * How many connections one other machine may hold open at once. Each costs the agent a file
 * descriptor, and nothing else bounds how many a stranger holds: one that connects and says
 * nothing is cut after the headers timeout (10 s), but connecting again costs it nothing, and
 * some 2,000 new connections a second keep the agent's ~20,000 descriptors taken, no key needed
 * (three plain Node scripts on this 2-core host held 18,000 of them); with none left, every
 * pulse goes unanswered.
 *
 * This machine (127.0.0.0/8, ::1) is never capped: a reverse proxy in front of the agent, the
 * bench and the desktop app all connect from it. An IPv6 client counts by its /64, as the
 * failed-key limiter counts it, so picking another address buys no more connections.
 */

/** Far above what a server's jobs, a fleet behind one NAT address or a remote dashboard holds. */
export const MAX_CONNECTIONS_PER_CLIENT = 512;

/** Closes at once each connection past `max` from one machine (other than this one); counted until each closes. */
export function capConnectionsPerClient(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const client = clientKey(socket.remoteAddress);
    if (client === 'loopback') return;
    const count = open.get(client) ?? 0;
    if (count >= max) {
      socket.destroy(); // before a byte is read: the cheapest refusal, and the descriptor is free again
      return;
    }
    open.set(client, count + 1);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left > 0) open.set(client, left);
      else open.delete(client);
    });
  });
}
