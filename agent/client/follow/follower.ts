import { redirectTarget, requestOnce } from '../connection/http';
import { shownUrl } from '../connection/baseUrl';
import { readEventStream } from './eventStream';
import {
  advanceCursor,
  EMPTY_CURSOR,
  cursorAtAgentClock,
  freshOnPage,
  inOrderOfEvents,
  startCursor,
  type FollowedNotification,
  type NotificationCursor,
} from './notificationCursor';
import { CONNECTED, connectionLost, connectionRestored, connectionTick, type ConnectionNotice, type ConnectionState, type ConnectionStep } from '../connection/connectionWatch';

/** Waits between attempts to reach the agent again; the last repeats. */
export const RECONNECT_DELAYS_MS = [500, 1_000, 2_000, 5_000];
/**
 * A connection that lasts this long was a real one: its loss is said again, and the next attempt
 * starts from the shortest wait. One cut sooner (an agent crash-looping, a proxy that closes every
 * stream) counts as a failed attempt, so the waits grow and nothing is said per attempt.
 */
export const STABLE_CONNECTION_MS = 30_000;
/** How often the follower checks whether "unreachable" is due, and whether the computer slept. */
const TICK_MS = 5_000;
/**
 * A wall clock that moved this much more (or less) than the monotonic one between two checks
 * means the computer slept (the monotonic clock stops meanwhile on Linux and macOS) or the clock
 * was set: the stream may be dead without a word, and its silence would be noticed only 45 s of
 * monotonic time later, the tray showing what was true before the sleep until then.
 */
export const CLOCK_JUMP_MS = 10_000;
const PER_PAGE = 100;
/** A catch-up reads at most this many pages (10,000 notifications); older ones stay in the dashboard. */
const MAX_CATCH_UP_PAGES = 100;

/** The agent said no for good (a wrong key, a key without read access, not a Cronbeat agent): following stops. */
export class FollowRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface FollowerOptions {
  baseUrl: string;
  token: string;
  /** Milliseconds since the epoch; Date.now when absent. */
  clock?: () => number;
  /**
   * New notifications, oldest first, each exactly once; `catchingUp` after a dropped connection,
   * and `sinceLastRun` too when they came while no follower ran (read from a saved `cursor`).
   */
  onNotifications(notifications: FollowedNotification[], info: { catchingUp: boolean; sinceLastRun?: boolean }): void;
  /**
   * Where an earlier run stopped (what `onCursor` last gave it): what came since is shown on the
   * first connect. Absent, the follower starts with what happens from then on.
   */
  cursor?: NotificationCursor;
  /** What was shown so far changed (after the notifications were handed over): keep it for the next run. */
  onCursor?(cursor: NotificationCursor): void;
  /** Every other event of the live stream (monitor.changed, …), for views that redraw on them. */
  onEvent?(event: { type: string; [field: string]: unknown }): void;
  /** The agent became unreachable (for over a minute) or came back. */
  onNotice?(notice: ConnectionNotice): void;
  /** Connected to the agent's live stream (after reading what was missed), or lost it (with why; once per loss). */
  onConnection?(connected: boolean, reason?: string): void;
  reconnectDelaysMs?: number[];
  /** How often the follower looks at the time (for "unreachable" and for a sleep); 5 s when absent. */
  checkEveryMs?: number;
  /**
   * Stop (FollowRefused) when the first connection finds no Cronbeat agent there or a certificate
   * this machine does not trust: a terminal user fixes the URL. The desktop app keeps trying
   * instead, since a captive portal (a hotel's Wi-Fi) poses as both until the laptop is let out.
   */
  stopWhenWrongPlace?: boolean;
}

/** What the follower says the refusal means, by status. */
function refusalMessage(status: number, message: string, baseUrl: string): string {
  if (status === 401) return `${baseUrl} refused the key (401 ${message}): check CRONBEAT_API_TOKEN or --token (\`cronbeat token create\` makes one).`;
  if (status === 403) return `This key may not read notifications (403 ${message}). Use a read-only or full key (cronbeat token create --scope read-only).`;
  if (status === 421) return `${baseUrl} does not answer to that name (421 ${message}).`;
  return `${baseUrl} refused to stream its events (${status} ${message}). Is it a Cronbeat agent?`;
}

/**
 * Follows an agent's notifications over its live stream (/api/events) and, on every (re)connect
 * and every `notification.created`, reads GET /api/notifications back to the last one it saw:
 * nothing missed across a dropped connection, nothing shown twice. The one place this rule
 * lives: `cronbeat notifications --follow` and the desktop app connected to a remote agent use it.
 */
export class NotificationFollower {
  /** What was shown so far; it starts with the newest notification when the follower first connects. */
  private cursor: NotificationCursor = EMPTY_CURSOR;
  private connection: ConnectionState = CONNECTED;
  private readonly clock: () => number;
  private readonly abort = new AbortController();
  private everConnected = false;
  private syncing: Promise<void> = Promise.resolve();
  private syncWanted = false;
  private refusal: FollowRefused | null = null;
  /** Whether the loss of the connection was reported (once per loss of a lasting connection, not once per attempt). */
  private lossReported = false;
  /** Ids of notifications the live stream announced since the last read of the list. */
  private readonly announced = new Set<string>();

  constructor(private readonly options: FollowerOptions) {
    this.clock = options.clock ?? Date.now;
    if (options.cursor && options.cursor.newestAt !== null) this.cursor = options.cursor;
  }

  /** Follows until stop() (resolves) or until the agent refuses for good (rejects with FollowRefused). */
  async run(): Promise<void> {
    let current: AbortController | null = null;
    let woke = false;
    let wall = this.clock();
    let monotonic = performance.now();
    const ticker = setInterval(() => {
      const [wallBefore, monotonicBefore] = [wall, monotonic];
      [wall, monotonic] = [this.clock(), performance.now()];
      if (Math.abs(wall - wallBefore - (monotonic - monotonicBefore)) > CLOCK_JUMP_MS) {
        // Read again now what may have changed meanwhile: a new stream, then the catch-up.
        woke = true;
        current?.abort(new Error('the computer slept or its clock was set: connecting again'));
      }
      this.apply(connectionTick(this.connection, wall));
    }, this.options.checkEveryMs ?? TICK_MS);
    let failures = 0;
    try {
      while (!this.abort.signal.aborted) {
        const stream = (current = new AbortController());
        const stopStream = () => stream.abort();
        this.abort.signal.addEventListener('abort', stopStream);
        let readyAt: number | null = null;
        const end = await readEventStream({
          baseUrl: this.options.baseUrl,
          token: this.options.token,
          signal: stream.signal,
          onEvent: (event) => {
            if (event.type === 'ready') {
              // The stream's first event; any later one (a hostile or broken agent) would make a catch-up and a line each.
              if (readyAt !== null) return;
              readyAt = performance.now();
              const sinceLastRun = !this.everConnected && this.cursor.newestAt !== null;
              const catchingUp = this.everConnected || sinceLastRun;
              this.everConnected = true;
              this.apply(connectionRestored(this.connection, this.clock()));
              // Said once the list was read: anything created from then on is shown.
              this.requestSync(catchingUp, stream, () => this.options.onConnection?.(true), sinceLastRun);
            } else if (event.type === 'notification.created') {
              if (typeof event.notificationId === 'string') this.announced.add(event.notificationId);
              this.requestSync(false, stream);
            }
            if (event.type !== 'ready') this.options.onEvent?.(event);
          },
        });
        this.abort.signal.removeEventListener('abort', stopStream);
        await this.syncing;
        if (this.refusal) throw this.refusal;
        if (this.abort.signal.aborted) break;
        if (end.kind === 'refused') throw new FollowRefused(refusalMessage(end.status, end.message, shownUrl(this.options.baseUrl)), end.status);
        const foreign =
          end.kind === 'foreign'
            ? `its /api/events answered ${end.contentType || 'without a content type'}, not an event stream`
            : end.kind === 'redirected'
              ? `its /api/events redirects to ${end.location}, not to an event stream`
              : null;
        // Never in, and waiting will not let us in: no Cronbeat agent there, an untrusted certificate, https:// to plain HTTP.
        if (this.options.stopWhenWrongPlace && !this.everConnected) {
          if (foreign) throw new FollowRefused(`${shownUrl(this.options.baseUrl)} is not a Cronbeat agent: ${foreign}. Check --url.`, 200);
          if (end.kind === 'dropped' && end.lasting) throw new FollowRefused(`cannot reach ${shownUrl(this.options.baseUrl)}: ${end.message}.`, 0);
        }
        const reason = foreign ?? (end.kind === 'dropped' ? end.message : '');
        // After a sleep, at once: nothing says the agent is unwell.
        if ((readyAt !== null && performance.now() - readyAt >= STABLE_CONNECTION_MS) || woke) {
          woke = false;
          failures = 0;
          this.lossReported = false;
        }
        this.apply(connectionLost(this.connection, this.clock()));
        if (!this.lossReported) this.options.onConnection?.(false, reason);
        this.lossReported = true;
        const delays = this.options.reconnectDelaysMs ?? RECONNECT_DELAYS_MS;
        // Not sooner than the agent (or a proxy in front of it) asked, when it said.
        await this.sleep(Math.max(delays[Math.min(failures++, delays.length - 1)], end.kind === 'dropped' ? (end.retryAfterMs ?? 0) : 0));
      }
    } finally {
      clearInterval(ticker);
    }
  }

  stop(): void {
    this.abort.abort();
  }

  private apply(step: ConnectionStep): void {
    this.connection = step.state;
    if (step.notice) this.options.onNotice?.(step.notice);
  }

  /** One catch-up at a time; events during one make exactly one more afterwards. */
  private requestSync(catchingUp: boolean, stream: AbortController, then?: () => void, sinceLastRun = false): void {
    if (this.syncWanted && !catchingUp && !then) return;
    this.syncWanted = true;
    this.syncing = this.syncing.then(async () => {
      this.syncWanted = false;
      try {
        await this.catchUp(catchingUp, sinceLastRun);
        then?.();
      } catch (error) {
        if (error instanceof FollowRefused) this.refusal = error;
        // Refused for good, or the list could not be read: drop the stream (saying why); the next connect catches up.
        stream.abort(error instanceof Error ? new Error(`the notifications could not be read: ${error.message}`) : undefined);
      }
    });
  }

  /** Reads the list back to the last notification seen and hands over what is new, oldest first. */
  private async catchUp(catchingUp: boolean, sinceLastRun: boolean): Promise<void> {
    // Announced before this read began: each is on the list by now.
    const announced = new Set(this.announced);
    this.announced.clear();
    if (this.cursor.newestAt === null) {
      this.cursor = startCursor(await this.page(1));
      this.options.onCursor?.(this.cursor);
      return;
    }
    const found = new Map<string, FollowedNotification>();
    for (let number = 1; number <= MAX_CATCH_UP_PAGES; number++) {
      const { notifications: page, agentNow } = await this.pageWithTime(number);
      if (number === 1) this.cursor = cursorAtAgentClock(this.cursor, agentNow);
      const { fresh, reachedSeen } = freshOnPage(this.cursor, page, announced);
      for (const notification of fresh) found.set(notification.id, notification);
      if (reachedSeen || page.length < PER_PAGE) break;
    }
    if (found.size === 0) return;
    const fresh = inOrderOfEvents([...found.values()]);
    this.cursor = advanceCursor(this.cursor, fresh);
    this.options.onNotifications(fresh, sinceLastRun ? { catchingUp, sinceLastRun } : { catchingUp });
    // Kept only once handed over: a crash in between shows them again rather than never.
    this.options.onCursor?.(this.cursor);
  }

  private async page(number: number): Promise<FollowedNotification[]> {
    return (await this.pageWithTime(number)).notifications;
  }

  /** A page of the list, and the agent's clock when it answered (its Date header; null when unreadable). */
  private async pageWithTime(number: number): Promise<{ notifications: FollowedNotification[]; agentNow: number | null }> {
    const url = `${this.options.baseUrl}/api/notifications?kinds=all&per_page=${PER_PAGE}&page=${number}`;
    const outcome = await requestOnce({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${this.options.token}`, accept: 'application/json' },
    });
    if (outcome.kind === 'unreachable') throw new Error(outcome.message);
    if (outcome.kind === 'rejected') {
      // Something in front of the agent for a while (a portal, a maintenance page), not the agent saying no: tried again.
      if (outcome.status >= 300 && outcome.status < 400) {
        throw new Error(`${new URL(this.options.baseUrl).origin} answered ${outcome.status}, a redirect to ${redirectTarget(new URL(url), String(outcome.headers?.location ?? '') || undefined)}`);
      }
      throw new FollowRefused(refusalMessage(outcome.status, outcome.message.replace(/^\d+\s*/, ''), shownUrl(this.options.baseUrl)), outcome.status);
    }
    const date = outcome.headers?.date;
    const agentNow = typeof date === 'string' ? Date.parse(date) : NaN;
    return { notifications: (JSON.parse(outcome.text) as { data: FollowedNotification[] }).data, agentNow: Number.isNaN(agentNow) ? null : agentNow };
  }

  /** Waits `ms`, or less when stopped; its listener goes with it, so reconnecting for days adds none to the signal. */
  private sleep(ms: number): Promise<void> {
    const signal = this.abort.signal;
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
    });
  }
}
