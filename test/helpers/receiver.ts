import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a receiver saw it. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * How the receiver answers a request: a status, body and headers; 'hang' (reads the request, never
 * answers); or a handler of its own (redirects to compute, bodies to stream, a moment to wait for).
 */
export type Answer =
  | { status: number; body?: string; headers?: Record<string, string> }
  | 'hang'
  | ((request: ReceivedRequest, res: ServerResponse) => void | Promise<void>);

/**
 * A local HTTP server standing in for a webhook, ntfy, Slack, Discord or Telegram: it records
 * every request and answers from `answers` in turn (the last one repeats; default 200 "ok").
 */
export class Receiver {
  readonly requests: ReceivedRequest[] = [];
  private server: Server | undefined;
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  private hanging = new Set<ServerResponse>();
  url = '';
  port = 0;

  constructor(public answers: Answer[] = [{ status: 200, body: 'ok' }]) {}

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        this.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        const answer = this.answers[Math.min(this.requests.length - 1, this.answers.length - 1)];
        this.waiters = this.waiters.filter((w) => (this.requests.length >= w.count ? (w.resolve(), false) : true));
        if (answer === 'hang') {
          this.hanging.add(res);
          return;
        }
        if (typeof answer === 'function') {
          this.hanging.add(res);
          void answer(this.requests[this.requests.length - 1], res);
          return;
        }
        res.writeHead(answer.status, { 'Content-Type': 'text/plain', ...answer.headers }).end(answer.body ?? '');
      });
    });
    await new Promise<void>((done) => this.server!.listen(port, '127.0.0.1', done));
    this.port = (this.server.address() as AddressInfo).port;
    this.url = `http://127.0.0.1:${this.port}`;
    return this;
  }

  /** Resolves once `count` requests have arrived in all. */
  received(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise((done) => this.server?.close(done) ?? done(undefined));
  }
}

/** Receivers a test file starts, answering `answers` (default 200 "ok"); stopAll() in afterEach. */
export function receiverPool() {
  const started: Receiver[] = [];
  return {
    async start(...answers: Answer[]): Promise<Receiver> {
      const receiver = await new Receiver(answers.length ? answers : undefined).start();
      started.push(receiver);
      return receiver;
    },
    async stopAll(): Promise<void> {
      await Promise.all(started.splice(0).map((r) => r.stop()));
    },
  };
}
