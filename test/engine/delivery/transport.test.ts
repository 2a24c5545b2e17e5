import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORED_TEXT_MAX } from '../../../agent/domain/channels/delivery';
import { MAX_IDLE_MS } from '../../../agent/engine/delivery/worker';
import { receiverPool, type Answer } from '../../helpers/receiver';
import { at } from '../engineFixture';
import { deliveryFixture } from './deliveryFixture';

// How a send talks HTTP to receivers that redirect, hang or answer
// with a bomb. Each receiver is a real local HTTP server.

let fixture: ReturnType<typeof deliveryFixture> | undefined;
const receivers = receiverPool();
const receiver = receivers.start;
afterEach(async () => {
  vi.useRealTimers();
  await receivers.stopAll();
  await fixture?.close();
  fixture = undefined;
});

const SECRET = 'a-webhook-secret-of-some-length';

describe('redirects', () => {
  it.each([301, 302, 303])('a %i is a failed attempt whose error names the new location; the POST never becomes a GET', async (status) => {
    fixture = deliveryFixture();
    const moved = await receiver();
    const hook = await receiver({ status, headers: { Location: `${moved.url}/new-home` } });
    fixture.channel('webhook', { url: `${hook.url}/old-home`, secret: SECRET });
    await fixture.failMonitor();
    await fixture.worker.runDue();

    expect(hook.requests.map((r) => r.method)).toEqual(['POST']);
    expect(moved.requests).toEqual([]);
    const [delivery] = fixture.deliveries();
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, sent_at: null });
    expect(delivery.last_error).toContain(`HTTP ${status}`);
    expect(delivery.last_error).toContain(`${moved.url}/new-home`);
  });

  it('a 307 on the same origin is followed with the same method, body and credentials', async () => {
    fixture = deliveryFixture();
    const hook = await receiver({ status: 307, headers: { Location: '/v2/in' } }, { status: 200, body: 'ok' });
    fixture.channel('webhook', { url: `http://alice:s3cret-pass@127.0.0.1:${hook.port}/v1/in`, secret: SECRET });
    await fixture.failMonitor();
    await fixture.worker.runDue();

    const [first, second] = hook.requests;
    expect(hook.requests.map((r) => [r.method, r.url])).toEqual([['POST', '/v1/in'], ['POST', '/v2/in']]);
    expect(second.body).toBe(first.body);
    expect(JSON.parse(second.body).title).toBe('backup missed its run');
    const basic = `Basic ${Buffer.from('alice:s3cret-pass').toString('base64')}`;
    expect(first.headers.authorization).toBe(basic);
    expect(second.headers.authorization).toBe(basic);
    expect(second.headers['x-cronbeat-signature']).toBe(first.headers['x-cronbeat-signature']);
    expect(fixture.deliveries()[0]).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('a 308 to another origin is followed with the body but without any credential', async () => {
    fixture = deliveryFixture();
    const elsewhere = await receiver();
    const hook = await receiver({ status: 308, headers: { Location: `${elsewhere.url}/collect` } });
    fixture.channel('webhook', { url: `http://alice:s3cret-pass@127.0.0.1:${hook.port}/in`, secret: SECRET });
    const ntfyHome = await receiver({ status: 307, headers: { Location: `${elsewhere.url}/ntfy` } });
    fixture.channel('ntfy', { server_url: ntfyHome.url, topic: 'backups', access_token: 'tk_ntfy-token-of-alice' });
    await fixture.failMonitor();
    await fixture.worker.runDue();

    expect(hook.requests[0].headers.authorization).toMatch(/^Basic /);
    expect(ntfyHome.requests[0].headers.authorization).toBe('Bearer tk_ntfy-token-of-alice');
    expect(elsewhere.requests.map((r) => [r.method, r.url]).sort()).toEqual([['POST', '/collect'], ['POST', '/ntfy']]);
    for (const request of elsewhere.requests) {
      expect(request.body).not.toBe('');
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers['x-cronbeat-signature']).toBeUndefined();
      expect(JSON.stringify(request)).not.toMatch(/s3cret-pass|tk_ntfy-token-of-alice/);
    }
    expect(fixture.deliveries().map((d) => d.status)).toEqual(['sent', 'sent']);
  });

  it('a redirect loop is a failed attempt after a few hops, not an endless chase', async () => {
    fixture = deliveryFixture();
    const hook = await receiver({ status: 307, headers: { Location: '/again' } });
    fixture.channel('webhook', { url: hook.url, secret: SECRET });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    expect(hook.requests.length).toBeLessThanOrEqual(6);
    const [delivery] = fixture.deliveries();
    expect(delivery.status).toBe('pending');
    expect(delivery.last_error).toMatch(/too many redirects/i);
  });
});

describe('answers', () => {
  /** Streams a gzip of "upstream exploded: " and endless "A"s (a thousand to one), up to `cap` compressed bytes. */
  function gzipBomb(status: number, cap: number) {
    const seen = { compressedBytes: 0, cancelled: undefined as Promise<boolean> | undefined };
    const answer: Answer = (_request, res) => {
      seen.cancelled = new Promise((resolve) => res.on('close', () => resolve(!res.writableFinished)));
      res.writeHead(status, { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' });
      const chunk = Buffer.alloc(64 * 1024, 'A');
      let first = true;
      const source = new Readable({
        read() {
          this.push(first ? Buffer.concat([Buffer.from('upstream exploded: '), chunk]) : chunk);
          first = false;
        },
      });
      const gzip = createGzip({ level: 9 });
      gzip.on('data', (data: Buffer) => {
        seen.compressedBytes += data.length;
        if (seen.compressedBytes >= cap) {
          source.destroy();
          gzip.end();
        }
      });
      source.pipe(gzip).pipe(res);
      res.on('close', () => source.destroy());
    };
    return { seen, answer };
  }

  it('reads at most a small prefix of a gzip bomb, stores bounded text and cancels the rest of the stream', async () => {
    fixture = deliveryFixture(at('2026-11-21T10:00:00Z'), { timeoutMs: 60_000 });
    const bomb = gzipBomb(500, 4 * 1024 * 1024);
    const hook = await receiver(bomb.answer);
    fixture.channel('webhook', { url: hook.url, secret: SECRET });
    await fixture.failMonitor();
    await fixture.worker.runDue();

    const [delivery] = fixture.store.db.prepare('SELECT * FROM deliveries').all() as Array<{ status: string; last_error: string; response_body: string; response_status: number }>;
    expect(delivery.status).toBe('pending');
    expect(delivery.response_status).toBe(500);
    expect(delivery.last_error).toMatch(/^The receiver answered HTTP 500: upstream exploded: AAAA/);
    expect(delivery.last_error.length).toBeLessThanOrEqual(STORED_TEXT_MAX);
    expect(delivery.response_body.length).toBeLessThanOrEqual(STORED_TEXT_MAX);
    expect(await bomb.seen.cancelled).toBe(true);
    expect(bomb.seen.compressedBytes).toBeLessThan(4 * 1024 * 1024);
  });

  it('a 2xx whose body never ends counts as delivered: the prefix is kept, the rest cancelled', async () => {
    fixture = deliveryFixture(at('2026-11-21T10:00:00Z'), { timeoutMs: 60_000 });
    const bomb = gzipBomb(200, Number.MAX_SAFE_INTEGER);
    const hook = await receiver(bomb.answer);
    fixture.channel('webhook', { url: hook.url, secret: SECRET });
    await fixture.failMonitor();
    await fixture.worker.runDue();
    const [delivery] = fixture.store.db.prepare('SELECT * FROM deliveries').all() as Array<{ status: string; response_body: string }>;
    expect(delivery.status).toBe('sent');
    expect(delivery.response_body).toMatch(/^upstream exploded: AAAA/);
    expect(delivery.response_body.length).toBeLessThanOrEqual(STORED_TEXT_MAX);
    expect(await bomb.seen.cancelled).toBe(true);
  });
});

describe('a destination that accepts and never answers', () => {
  it('leaves the worker asleep until the next due attempt (no busy loop), its queue held behind the open send', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fixture = deliveryFixture(at('2026-11-21T10:00:00Z'), { timeoutMs: 30 * 60_000 });
    const hanging = await receiver('hang');
    fixture.channel('webhook', { url: hanging.url, secret: SECRET });
    const deliveries = fixture.store.deliveries;
    const due = deliveries.due.bind(deliveries);
    let passes = 0;
    deliveries.due = (...args) => {
      passes++;
      return due(...args);
    };
    fixture.worker.start();
    await fixture.failMonitor('first');
    await fixture.failMonitor('second');
    vi.advanceTimersByTime(0);
    await hanging.received(1);

    const before = passes;
    // Ten minutes of the worker's own timers; a setTimeout(0) loop would run thousands of passes here.
    vi.advanceTimersByTime(10 * 60_000);
    expect(passes - before).toBeLessThanOrEqual((10 * 60_000) / MAX_IDLE_MS + 2);
    expect(hanging.requests).toHaveLength(1);
    expect(fixture.deliveries().map((d) => [d.status, d.attempts])).toEqual([['sending', 1], ['pending', 0]]);
  });
});

/**
 * A port whose connections never open: a real listener (Python's, as Node accepts every
 * connection itself) with a backlog of one, filled by one connection; SYNs after it are dropped.
 */
async function unopenablePort(): Promise<{ port: number; close: () => void }> {
  const listener: ChildProcess = spawn('python3', ['-c', 'import socket,time\ns=socket.socket();s.bind(("127.0.0.1",0));s.listen(0);print(s.getsockname()[1],flush=True);time.sleep(600)']);
  const port = await new Promise<number>((resolve) => listener.stdout!.once('data', (data: Buffer) => resolve(Number(String(data).trim()))));
  const filler: Socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => filler.once('connect', resolve));
  return { port, close: () => (filler.destroy(), listener.kill()) };
}

const hasPython = spawnSync('python3', ['--version']).status === 0;

describe('a destination that never lets a connection open', () => {
  it.skipIf(!hasPython)('fails the attempt with the connect timeout, long before the total one', async () => {
    const target = await unopenablePort();
    try {
      fixture = deliveryFixture(at('2026-11-21T10:00:00Z'), { timeoutMs: 10 * 60_000, connectTimeoutMs: 300 });
      fixture.channel('webhook', { url: `http://127.0.0.1:${target.port}/in`, secret: SECRET });
      await fixture.failMonitor();
      await fixture.worker.runDue();
      expect(fixture.deliveries()[0]).toMatchObject({ status: 'pending', attempts: 1 });
      expect(fixture.deliveries()[0].last_error).toMatch(/^Could not connect in time/);
    } finally {
      target.close();
    }
  });
});
