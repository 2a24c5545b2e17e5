import { agentUrl, refusedCredentials, type Credentials } from '../api/client';
import { agentAnswered, agentUnreachable } from './reachability';

/** What the agent pushes on GET /api/events (see agent/api/routes/events.ts). */
export interface LiveEvent {
  type: 'monitor.changed' | 'server.changed' | 'certificate.changed' | 'notification.created' | 'poll' | string;
  /** What changed, for the topics that name it. */
  monitorId?: number;
  serverId?: number;
  certificateId?: number;
  channelId?: number;
  windowId?: number;
  notificationId?: string | null;
  /** The thing named is gone (deleted): drop it, do not ask for it. */
  deleted?: boolean;
}

export type LiveState = 'connecting' | 'live' | 'polling';

/** Splits a Server-Sent Events stream into the `data` payload of each event. */
export class SseParser {
  private buffer = '';

  /** Feeds a chunk of text; returns the data of every event completed by it. */
  push(chunk: string): string[] {
    this.buffer += chunk.replace(/\r\n?/g, '\n');
    const events: string[] = [];
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''));
      if (data.length) events.push(data.join('\n'));
    }
    return events;
  }
}

const pollEveryMs = 5_000;
/**
 * The agent writes on the stream every 15 s at the least (a ": ping" comment, HEARTBEAT_MS in
 * agent/api/routes/events.ts). Silent three times as long, it is not answering, though nothing
 * refused or closed the connection: a stopped or frozen process, a machine asleep, a network
 * path gone quiet. Every request then waits without end, so nothing else would ever say so.
 */
const silentAfterMs = 45_000;
/** How long the check made then (GET /api/health, the cheapest answer) may take before the agent counts as away. */
const healthWaitMs = 10_000;
const safetyPollEveryMs = 60_000;
const maxBackoffMs = 15_000;

/**
 * Keeps a streaming connection to /api/events (fetch, because EventSource cannot send an
 * Authorization header), reconnects with backoff, and polls while it is down so screens stay
 * fresh either way. Listeners get every event plus a synthetic "poll" tick.
 */
export class LiveFeed {
  private listeners = new Set<(event: LiveEvent) => void>();
  private stateListeners = new Set<(state: LiveState) => void>();
  private controller: AbortController | null = null;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private backoffMs = 1_000;
  private stopped = false;
  /** Bumped by start and stop, so a connection from before a restart never reconnects itself. */
  private generation = 0;
  state: LiveState = 'connecting';

  constructor(private readonly credentials: Credentials) {}

  start(): void {
    this.stopped = false;
    this.generation++;
    void this.connect(this.generation);
  }

  stop(): void {
    this.stopped = true;
    this.generation++;
    this.controller?.abort();
    this.timers.forEach(clearTimeout);
    this.timers = [];
    this.setPolling(null);
  }

  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onState(listener: (state: LiveState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private emit(event: LiveEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  private setState(state: LiveState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  private setPolling(everyMs: number | null): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = everyMs ? setInterval(() => this.emit({ type: 'poll' }), everyMs) : null;
  }

  /** Whether the agent answers at all, said to every screen (the banner over stale data) either way. */
  private async checkAnswers(): Promise<void> {
    const controller = new AbortController();
    const giveUp = setTimeout(() => controller.abort(), healthWaitMs);
    try {
      await fetch(agentUrl(this.credentials, '/api/health'), { signal: controller.signal, cache: 'no-store' });
      agentAnswered();
    } catch {
      if (!this.stopped) agentUnreachable();
    } finally {
      clearTimeout(giveUp);
    }
  }

  private async connect(generation: number): Promise<void> {
    if (this.stopped || generation !== this.generation) return;
    const controller = new AbortController();
    this.controller = controller;
    let silent = false;
    let silence: ReturnType<typeof setTimeout> | undefined;
    /** (Re)starts the wait for the agent's next word: the headers, an event or a ping. */
    const heard = () => {
      clearTimeout(silence);
      silence = setTimeout(() => {
        silent = true;
        controller.abort();
      }, silentAfterMs);
    };
    heard();
    try {
      const response = await fetch(agentUrl(this.credentials, '/api/events'), {
        headers: { Authorization: `Bearer ${this.credentials.token}`, Accept: 'text/event-stream' },
        signal: controller.signal,
        cache: 'no-store',
      });
      heard();
      agentAnswered();
      // A revoked key, or a session signed out in another tab: sign in again now, not at the next poll.
      if (response.status === 401) refusedCredentials(this.credentials);
      if (!response.ok || !response.body) throw new Error(`events answered ${response.status}`);
      const wasDown = this.state !== 'live' && this.state !== 'connecting';
      this.setState('live');
      this.setPolling(safetyPollEveryMs);
      this.backoffMs = 1_000;
      // Anything may have changed while the stream was down.
      if (wasDown) this.emit({ type: 'poll' });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        heard();
        for (const data of parser.push(value)) {
          try {
            this.emit(JSON.parse(data) as LiveEvent);
          } catch {
            // Ignore a malformed event rather than drop the stream.
          }
        }
      }
    } catch (error) {
      // Refused, aborted or cut: fall through to reconnect (unless stopped). A fetch that
      // cannot connect (TypeError) means the agent is gone: the screens say their data is stale.
      if (error instanceof TypeError && !this.stopped) agentUnreachable();
      // A silent stream may be a proxy holding it back while the agent answers: ask the agent itself.
      else if (silent && !this.stopped) void this.checkAnswers();
    } finally {
      clearTimeout(silence);
    }
    if (this.stopped || generation !== this.generation) return;
    this.setState('polling');
    this.setPolling(pollEveryMs);
    this.timers.push(setTimeout(() => void this.connect(generation), this.backoffMs));
    this.backoffMs = Math.min(this.backoffMs * 2, maxBackoffMs);
  }
}
