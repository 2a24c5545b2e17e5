import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import { ROUTER_OPTIONS } from '../http/routerOptions';
import { StreamSlots } from '../http/streamSlots';
import type { AgentEvent } from '../../engine/events';
import type { ApiDeps, AuthedRouter } from '../deps';

/** How often an idle stream gets a comment, so proxies keep it open. */
export const HEARTBEAT_MS = 15_000;

/**
 * How often a stream looks whether its key was revoked by another process (`cronbeat token
 * revoke` writes the database beside the agent, so no event says so): one look-up by id.
 */
export const KEY_CHECK_MS = 1_000;

/**
 * What one stream may hold in the agent for a client that is not reading (a tab frozen in the
 * background, a stalled network). Past it the client is dropped: it reconnects and reloads, as
 * the dashboard does, instead of the agent growing without bound during a pulse storm.
 */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

/** The event as the dashboard sees it: what changed, never another company's data. */
export function toWireEvent(event: AgentEvent): Record<string, unknown> {
  const { companyId: _company, ...rest } = event;
  return rest;
}

/**
 * GET /api/events: Server-Sent Events of the token's company (same Bearer auth as the API).
 * Each event is one `data:` line of JSON such as {"type":"monitor.changed","monitorId":3}.
 */
export function eventRoutes({ store, events, log, requireToken, clock }: ApiDeps): AuthedRouter {
  const router: AuthedRouter = new Router(ROUTER_OPTIONS);
  const slots = new StreamSlots();

  router.get('/api/events', requireToken, (ctx) => {
    const { companyId, tokenId } = ctx.state;
    // Refused (429) before anything is held; given back when the connection is gone, not when the
    // stream ends, since a client that does not read holds its socket until it is cut.
    const release = slots.take(companyId, tokenId);
    ctx.res.on('close', release);
    const presented = /^Bearer\s+(\S+)/i.exec(ctx.get('Authorization'))?.[1] ?? '';
    const stream = new PassThrough();
    const { res } = ctx;
    // Ours to free: the stream's own buffers, the response's and the socket's (the kernel's are not counted).
    const buffered = () => stream.writableLength + stream.readableLength + res.writableLength + (res.socket?.writableLength ?? 0);
    const write = (text: string) => {
      if (stream.destroyed || stream.writableEnded) return;
      if (buffered() + text.length > MAX_BUFFERED_BYTES) {
        log(`Dropped an /api/events client more than ${MAX_BUFFERED_BYTES} bytes behind; it will reconnect.`, { level: 'warn' });
        stop(); // no further events for it, so this is said once
        res.destroy();
        return;
      }
      stream.write(text);
    };

    // A key revoked here (DELETE /api/keys/{id}, a dashboard signing out) ends its streams at once, before
    // any later event. One revoked by another process (`cronbeat token revoke` beside a running agent)
    // is seen before the first event of each turn of the event loop (one look-up per burst, not per
    // event), and within KEY_CHECK_MS when no event comes.
    let checkedThisTurn = false;
    const stillLive = () => {
      if (checkedThisTurn) return true;
      checkedThisTurn = true;
      setImmediate(() => (checkedThisTurn = false));
      try {
        return store.apiTokens.isLive(tokenId);
      } catch {
        return true; // a database that cannot be read now must not break whoever emitted the event; the heartbeat looks again
      }
    };
    const unsubscribe = events.subscribe((event) => {
      if (event.companyId !== companyId) return;
      if (event.type === 'key.revoked') {
        if (event.tokenId === tokenId) stop();
        return; // never on the wire: what a client needs to know is that its own stream ended
      }
      if (!stillLive()) return stop();
      write(`data: ${JSON.stringify(toWireEvent(event))}\n\n`);
    });
    const heartbeat = setInterval(() => {
      // A token revoked (signed out elsewhere) ends the stream; the client then gets 401s.
      if (store.apiTokens.authenticate(presented, clock())?.id !== tokenId) stop();
      else write(': ping\n\n');
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const keyCheck = setInterval(() => {
      checkedThisTurn = false;
      if (!stillLive()) stop();
    }, KEY_CHECK_MS);
    keyCheck.unref();
    const stop = () => {
      clearInterval(heartbeat);
      clearInterval(keyCheck);
      unsubscribe();
      stopOnClose();
      stream.end();
    };
    const stopOnClose = events.onClose(() => stop());
    // The response closes when the client goes away (req's 'close' fires as soon as a GET is read).
    ctx.res.on('close', stop);
    stream.on('close', stop);

    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      'X-Accel-Buffering': 'no',
      // The socket goes with the stream, so a stopping agent is not held open by an idle keep-alive.
      Connection: 'close',
    });
    ctx.body = stream;
    write(`retry: 2000\ndata: ${JSON.stringify({ type: 'ready' })}\n\n`);
  });

  return router;
}
