import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, requestOnce } from '../../agent/client/connection/http';
import { MAX_EVENT_CHARS, readEventStream } from '../../agent/client/follow/eventStream';
import { NotificationFollower } from '../../agent/client/follow/follower';

/*
 * The follower against agents that misbehave: answers and events without end are cut at their
 * bound (never read whole into memory) with one clear message, and the follower connects again;
 * reconnecting many times adds no listener anywhere. Real HTTP on 127.0.0.1; reconnects are
 * driven by the server closing, never by waiting.
 */

let servers: Server[] = [];
afterEach(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
  servers = [];
});

function serve(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

/** Writes `piece` again and again as fast as the reader takes it, up to `limit` bytes; resolves with how much was sent once the reader hangs up. */
function endless(res: import('node:http').ServerResponse, piece: Buffer, limit = 600 * 1024 * 1024): Promise<number> {
  let sent = 0;
  return new Promise((resolve) => {
    res.on('close', () => resolve(sent));
    const pump = () => {
      while (sent < limit && !res.destroyed) {
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
}

const MB = Buffer.alloc(1024 * 1024, 'x');

describe('answers and events are bounded', () => {
  it('an endless answer is cut at 8 MB with one clear message, not read whole', async () => {
    let sent: Promise<number> = Promise.resolve(0);
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      sent = endless(res, MB);
    });
    const outcome = await requestOnce({ method: 'GET', url: `${url}/api/notifications` });
    expect(outcome).toEqual({ kind: 'unreachable', message: `${url} sent an answer over 8 MB, more than a Cronbeat agent sends: not read` });
    // What the sockets' buffers held on top of the bound, not the 600 MB offered.
    expect(await sent).toBeLessThan(MAX_ANSWER_BYTES + 32 * 1024 * 1024);
  });

  it('an answer that says it is over the bound is not read at all', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(600 * 1024 * 1024) });
      res.write('[');
    });
    const outcome = await requestOnce({ method: 'GET', url: `${url}/api/monitors` });
    expect(outcome.kind === 'unreachable' && outcome.message).toContain('sent an answer over 8 MB');
  });

  it('an event without end is cut at 1 MB and the stream dropped', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"type":"ready"}\n\n');
      void endless(res, Buffer.concat([Buffer.from('data: '), MB, Buffer.from('\n')]));
    });
    const events: string[] = [];
    const end = await readEventStream({ baseUrl: url, token: 't', onEvent: (event) => events.push(event.type) });
    expect(events).toEqual(['ready']);
    expect(end).toEqual({ kind: 'dropped', message: `the agent sent an event over ${MAX_EVENT_CHARS / 1024 / 1024} MB, more than a Cronbeat agent sends: not read` });
  });

  it('a refusal without end is read for its first kilobytes only', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(401, 'Unauthorized', { 'content-type': 'application/json' });
      void endless(res, MB, Infinity);
    });
    const end = await readEventStream({ baseUrl: url, token: 't', onEvent: () => {} });
    expect(end).toEqual({ kind: 'refused', status: 401, message: 'Unauthorized' });
  });

  it('the follower says why it lost the agent when an answer is too big, and connects again', async () => {
    let streams = 0;
    const made: { follower?: NotificationFollower } = {};
    const url = await serve((req, res) => {
      if (req.url!.startsWith('/api/events')) {
        if (++streams === 2) made.follower!.stop();
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"type":"ready"}\n\n');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        void endless(res, MB);
      }
    });
    const reasons: string[] = [];
    const follower = (made.follower = new NotificationFollower({
      baseUrl: url,
      token: 't',
      reconnectDelaysMs: [0],
      onNotifications: () => {},
      onConnection: (connected, reason) => reasons.push(`${connected} ${reason}`),
    }));
    await follower.run();
    expect(streams).toBe(2);
    expect(reasons).toEqual([`false the notifications could not be read: ${url} sent an answer over 8 MB, more than a Cronbeat agent sends: not read`]);
  });
});

describe('reconnecting', () => {
  it('adds no listener per attempt: no MaxListenersExceededWarning after many drops', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const ATTEMPTS = 40;
    let attempts = 0;
    const listenerCounts: number[] = [];
    const made: { follower?: NotificationFollower } = {};
    const stopSignal = () => (made.follower as unknown as { abort: AbortController }).abort.signal;
    const url = await serve((_req, res) => {
      listenerCounts.push(getEventListeners(stopSignal(), 'abort').length);
      if (++attempts === ATTEMPTS) made.follower!.stop();
      // An event stream that ends at once: the follower has lost the agent and connects again.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end();
    });
    const follower = (made.follower = new NotificationFollower({ baseUrl: url, token: 't', reconnectDelaysMs: [0], onNotifications: () => {} }));
    try {
      await follower.run();
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(attempts).toBe(ATTEMPTS);
    expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
    expect(new Set(listenerCounts)).toEqual(new Set([listenerCounts[0]]));
    expect(getEventListeners(stopSignal(), 'abort')).toHaveLength(0);
  });
});

describe('an agent that never answers', () => {
  it('a stream whose request is never answered (a frozen agent, a proxy that hangs) is dropped after the silence, not waited on for ever', async () => {
    const url = await serve(() => {
      // accepts the request, then says nothing
    });
    const end = await readEventStream({ baseUrl: url, token: 't', onEvent: () => {}, silenceMs: 200 });
    expect(end).toEqual({ kind: 'dropped', message: 'no word from the agent in 0.2 s' });
  });

  it('a refusal whose body never ends is dropped after the silence too', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(503, 'Service Unavailable', { 'content-type': 'application/json' });
      res.write('{"message":');
    });
    const end = await readEventStream({ baseUrl: url, token: 't', onEvent: () => {}, silenceMs: 200 });
    expect(end).toEqual({ kind: 'dropped', message: 'no word from the agent in 0.2 s' });
  });
});

describe('redirects', () => {
  it('a redirect (a captive portal sending to its login page) is not the agent refusing: the desktop follower keeps trying, and never follows it', async () => {
    const asked: string[] = [];
    let portal = true;
    const made: { follower?: NotificationFollower } = {};
    const reasons: string[] = [];
    const url = await serve((req, res) => {
      asked.push(`${req.url} ${req.headers.authorization ?? ''}`);
      if (portal) {
        if (asked.length === 4) portal = false; // the user signed in to the Wi-Fi
        res.writeHead(302, { location: 'http://portal.example/login?from=cronbeat' }).end();
        return;
      }
      if (req.url!.startsWith('/api/events')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"type":"ready"}\n\n');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
    });
    const follower = (made.follower = new NotificationFollower({
      baseUrl: url,
      token: 't',
      reconnectDelaysMs: [0],
      onNotifications: () => {},
      onConnection: (connected, reason) => {
        reasons.push(`${connected} ${reason ?? ''}`.trim());
        if (connected) follower.stop();
      },
    }));
    await follower.run();
    expect(reasons).toEqual(['false its /api/events redirects to http://portal.example/login?from=cronbeat, not to an event stream', 'true']);
    expect(asked.every((line) => line.endsWith('Bearer t'))).toBe(true);
  });

  it('a redirect while reading what was missed drops the stream to try again, rather than stopping for good', async () => {
    let lists = 0;
    const reasons: string[] = [];
    const url = await serve((req, res) => {
      if (req.url!.startsWith('/api/events')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"type":"ready"}\n\n');
        return;
      }
      if (++lists === 1) return void res.writeHead(307, { location: '/maintenance.html' }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
    });
    const follower = new NotificationFollower({
      baseUrl: url,
      token: 't',
      reconnectDelaysMs: [0],
      onNotifications: () => {},
      onConnection: (connected, reason) => {
        reasons.push(`${connected} ${reason ?? ''}`.trim());
        if (connected) follower.stop();
      },
    });
    await follower.run();
    expect(reasons).toEqual([`false the notifications could not be read: ${url} answered 307, a redirect to ${url}/maintenance.html`, 'true']);
  });

  it('the terminal follower that never got in stops at a redirect, saying where it leads', async () => {
    const url = await serve((_req, res) => res.writeHead(301, { location: 'https://backup-box.example/api/events' }).end());
    const follower = new NotificationFollower({ baseUrl: url, token: 't', stopWhenWrongPlace: true, onNotifications: () => {} });
    await expect(follower.run()).rejects.toThrow(`${url} is not a Cronbeat agent: its /api/events redirects to https://backup-box.example/api/events, not to an event stream. Check --url.`);
  });
});

describe("the agent's Retry-After", () => {
  it('a 429 or 503 that says when to come back is waited for, beyond the shortest backoff', async () => {
    const attempts: number[] = [];
    const made: { follower?: NotificationFollower } = {};
    const url = await serve((req, res) => {
      if (!req.url!.startsWith('/api/events')) return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
      attempts.push(performance.now());
      if (attempts.length === 1) return void res.writeHead(503, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"message":"starting"}');
      made.follower!.stop();
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end();
    });
    const follower = (made.follower = new NotificationFollower({ baseUrl: url, token: 't', reconnectDelaysMs: [0], onNotifications: () => {} }));
    await follower.run();
    expect(attempts).toHaveLength(2);
    expect(attempts[1] - attempts[0]).toBeGreaterThanOrEqual(990);
  });
});

describe('an agent under a path of its proxy', () => {
  it('streams its events under that path too, as every other request goes (https://example.com/cronbeat)', async () => {
    const asked: string[] = [];
    const url = await serve((req, res) => {
      asked.push(req.url!);
      if (req.url === '/cronbeat/api/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.write('data: {"type":"ready"}\n\n');
      }
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>');
    });
    const stop = new AbortController();
    const events: string[] = [];
    const end = await readEventStream({ baseUrl: `${url}/cronbeat`, token: 't', signal: stop.signal, onEvent: (event) => (events.push(event.type), stop.abort()) });
    expect(asked).toEqual(['/cronbeat/api/events']);
    expect(events).toEqual(['ready']);
    expect(end).toEqual({ kind: 'dropped', message: 'stopped' });
  });
});
