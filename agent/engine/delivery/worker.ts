import { randomUUID } from 'node:crypto';
import type { Store } from '../../db/store';
import type { ChannelRow } from '../../db/channels';
import type { DeliveryRow } from '../../db/deliveries';
import type { AgentEvents } from '../events';
import type { Notifier } from '../popups/notifier';
import { channelKind } from '../../contract/channels';
import { channelSecretValues } from '../../domain/channels/secrets';
import { CHANNEL_DELETED, failedAfterChannelDeleted, nextAttemptAt, quietHoursEnd, retryAfterMs, RETRY_FOR_MS } from '../../domain/channels/delivery';
import { buildDigestRequest, buildReportRequest, buildRequest, channelAlert, digestAsData, reportOf, testNotification, type MessageContext, type OutgoingRequest } from './messages';
import { digestContent, DIGEST_INTERVAL_MS, oneDigestAtATime, refusedForSize, planBurst, settleInSlices, testAnswer } from './digests';
import { send, type AttemptResult } from './transport';
import { judged } from './kinds';
import { RateLimits } from './rateLimits';
import { popupWhenFailingLong } from './failingPopup';
import { olderFirst } from './order';
import { followMove } from './moves';
import type { Log } from '../../log/logger';
import { describeError } from '../../domain/text/errorText';

/** The worker looks at the outbox at least this often. */
export const MAX_IDLE_MS = 30_000;
/** How long one send may take, in all. */
export const DEFAULT_SEND_TIMEOUT_MS = 10_000;
/** At most this many sends at once, all channels together... */
export const MAX_IN_FLIGHT = 16;
/** ...and one at a time per channel, so a slow channel holds only its own deliveries, in order. */
export const PER_CHANNEL = 1;
/** How long stop() waits for sends in flight before leaving them to the next start. */
const STOP_GRACE_MS = 2000;
/** While the database cannot be written, the worker looks again after this, doubling up to MAX_IDLE_MS. */
export const FIRST_RETRY_MS = 1_000;
/** New notifications bring a pass at most this often. */
export const PASS_GAP_MS = 50;

export interface DeliveryWorkerOptions {
  store: Store;
  events: AgentEvents;
  notifier: Notifier;
  clock: () => number;
  log: Log;
  /** The dashboard's address for links in messages (known once the agent listens). */
  dashboardUrl: () => string;
  /** The admin's zone: alerts give times in the monitor's zone and in this one. Default: UTC. */
  adminZone?: string;
  timeoutMs?: number;
  /** How long opening a connection may take (at most timeoutMs). */
  connectTimeoutMs?: number;
  /** Extra trusted roots for SMTP over TLS. */
  trustedCa?: string[];
}

/**
 * Sends the outbox (agent/db/deliveries.ts): each due delivery is claimed in the database before
 * it is sent and marked sent or rescheduled after, so a sent delivery is never sent again. Sends
 * run concurrently (PER_CHANNEL per channel, MAX_IN_FLIGHT in all), each with a timeout, and
 * never block the caller: a hanging channel holds only its own deliveries.
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private writable = true;
  private unsubscribe: (() => void) | undefined;
  private readonly busy = new Map<number, number>();
  /** Channels whose digest waits for its burst to be failed (digests.ts), until when (the clock's time). */
  private readonly burstWaits = new Map<number, number>();
  private readonly rateLimits = new RateLimits();
  /** Deliveries sent again at once to where their service said the channel moved: the next such answer is not followed at once. */
  private readonly justMoved = new Set<number>();
  private readonly inFlight = new Set<Promise<void>>();
  /** While passes fail (the database cannot be written): how long to wait before the next; 0 when they work. */
  private retryMs = 0;
  /** When (performance.now()) the last pass began, and when the planned one will. */
  private lastPassAt = -Infinity;
  private plannedAt = Infinity;
  private readonly digests = oneDigestAtATime();

  constructor(private readonly options: DeliveryWorkerOptions) {}

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_SEND_TIMEOUT_MS;
  }

  /** Puts back what a crash interrupted, then sends whatever is due, now and whenever more is. */
  start(): void {
    const released = this.options.store.deliveries.releaseInterrupted(this.options.clock());
    if (released > 0) this.options.log(`Delivery: ${released} interrupted send(s) will be tried again.`, { level: 'warn' });
    this.unsubscribe = this.options.events.subscribe((event) => {
      // A channel's change (quiet hours gone, deleted) may make its deliveries due or failed.
      if (event.type === 'notification.created') this.soon();
      if (event.type === 'channel.changed') this.plan(0);
    });
    this.plan(0);
  }

  /** Stops looking; waits a moment for sends in flight, and leaves the others to the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.unsubscribe?.();
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => (grace = setTimeout(resolve, STOP_GRACE_MS))),
    ]);
    clearTimeout(grace);
    this.writable = false;
  }

  /**
   * A pass for a new notification: now, or PASS_GAP_MS after the last one (a burst writes one every
   * few hundred microseconds, and a pass each would cost the burst a quarter of its time).
   */
  private soon(): void {
    const at = Math.max(performance.now(), this.lastPassAt + PASS_GAP_MS);
    if (this.plannedAt > at) this.plan(at - performance.now());
  }

  /** Channels a pass leaves alone: every send slot taken, or a digest waiting for its burst (longer than a digest may wait: planned on a clock set back since). */
  private busyChannels(): number[] {
    const now = this.options.clock();
    for (const [id, until] of this.burstWaits) if (until <= now || until - now > DIGEST_INTERVAL_MS) this.burstWaits.delete(id);
    return [...[...this.busy].filter(([, n]) => n >= PER_CHANNEL).map(([id]) => id), ...this.burstWaits.keys(), ...this.rateLimits.held(now, (id) => this.options.store.channels.findAny(id)?.settings)];
  }

  /**
   * Wakes after `delay`, or when the next delivery of a free channel is due (never sooner than a retry
   * after a failed pass); with every send slot taken, when a send ends.
   */
  private plan(delay?: number): void {
    if (this.stopped) return;
    let wait = delay ?? MAX_IDLE_MS;
    // Every slot taken (hanging receivers): nothing can start before a send ends, and its end plans again.
    if (delay === undefined && this.inFlight.size < MAX_IN_FLIGHT) {
      try {
        const due = this.options.store.deliveries.earliestDue(this.busyChannels());
        const earliest = Math.min(due ?? Infinity, ...this.burstWaits.values(), this.rateLimits.earliestEnd());
        if (earliest !== Infinity) wait = Math.min(MAX_IDLE_MS, Math.max(this.retryMs, earliest - this.options.clock()));
      } catch {
        wait = Math.max(this.retryMs, FIRST_RETRY_MS);
      }
    }
    clearTimeout(this.timer);
    this.plannedAt = performance.now() + wait;
    this.timer = setTimeout(() => {
      this.plannedAt = Infinity;
      void this.runDue();
    }, wait);
    this.timer.unref?.();
  }

  /**
   * One pass: claims and starts every due delivery a free channel can take. Resolves when the
   * sends it started have finished (the loop never waits for it; tests do).
   */
  runDue(): Promise<void> {
    this.lastPassAt = performance.now();
    const started: Promise<void>[] = [];
    try {
      const { store } = this.options;
      const now = this.options.clock();
      const seen = new Set<number>();
      const reclaimed = store.deliveries.reclaimExpired(now, this.busyChannels());
      if (reclaimed > 0) this.options.log(`Delivery: ${reclaimed} send(s) whose result could not be recorded will be tried again.`, { level: 'warn' });
      while (!this.stopped && this.inFlight.size < MAX_IN_FLIGHT) {
        const due = store.deliveries.due(now, MAX_IN_FLIGHT, this.busyChannels());
        if (due.length === 0) break;
        let progressed = false;
        for (const delivery of due) {
          if (this.inFlight.size >= MAX_IN_FLIGHT) break;
          if (seen.has(delivery.id) || (this.busy.get(delivery.channel_id) ?? 0) >= PER_CHANNEL) continue;
          seen.add(delivery.id);
          const attempt = this.take(delivery, now);
          progressed = true;
          if (attempt) started.push(attempt);
        }
        if (!progressed) break;
      }
      this.retryMs = 0;
    } catch (error) {
      // Retrying at once would spin a core and flood the log: back off, and say so once.
      if (this.retryMs === 0) this.options.log(`Delivery: ${describeError(error)}; retrying with backoff`, { level: 'error' });
      this.retryMs = Math.min(MAX_IDLE_MS, Math.max(FIRST_RETRY_MS, this.retryMs * 2));
    }
    this.plan();
    return Promise.allSettled(started).then(() => undefined);
  }

  /** Claims `delivery` and starts its send; null when it was held, dropped or claimed by no one. */
  private take(delivery: DeliveryRow, now: number): Promise<void> | null {
    const { store } = this.options;
    const channel = store.channels.findAny(delivery.channel_id);
    if (!channel || channel.deleted_at !== null) {
      store.deliveries.drop(delivery.id, CHANNEL_DELETED);
      return null;
    }
    const quietEnd = quietHoursEnd(channel.quiet_hours, now);
    if (quietEnd !== null) {
      store.deliveries.defer(delivery.id, quietEnd, quietEnd + RETRY_FOR_MS);
      return null;
    }
    const row = store.notifications.find(channel.company_id, delivery.notification_id);
    if (!row) {
      store.deliveries.drop(delivery.id, 'The notification is gone.');
      return null;
    }
    const older = olderFirst(store, delivery, channel, now);
    if (older) return this.take(older, now);
    const report = reportOf(row); // never part of a burst of alerts
    const plan = report ? 'single' : planBurst(store, delivery, now);
    if (typeof plan === 'object') this.burstWaits.set(channel.id, plan.waitUntil);
    if (plan !== 'single' && plan !== 'digest') return null;
    if (!store.deliveries.claim(delivery.id, now, now + this.timeoutMs)) return null;
    this.busy.set(channel.id, (this.busy.get(channel.id) ?? 0) + 1);
    const context = { ...this.context(channel, delivery.uuid), ...(delivery.recipients ? { recipients: JSON.parse(delivery.recipients) as string[] } : {}) };
    const webhookUrl = digestAsData(channel) ? context.dashboardUrl : null;
    const request =
      plan === 'digest'
        ? () => this.digests(async () => buildDigestRequest(channel, await digestContent(store, channel.company_id, delivery.id, webhookUrl, (alert) => channelAlert(channel, alert), delivery.attempts === 0 ? channel.id : null), context, delivery.created_at))
        : () => (report ? buildReportRequest(channel, report, context) : buildRequest(channel, row, context));
    const attempt = this.attempt(delivery, channel, request, plan === 'digest').finally(() => {
      if (this.writable) this.options.events.emit({ type: 'delivery.changed', companyId: row.notifiable_id, notificationId: row.id });
      this.busy.set(channel.id, (this.busy.get(channel.id) ?? 1) - 1);
      this.inFlight.delete(attempt);
      // A channel is free again: what waited for it may be due (unless the database cannot be written).
      this.plan(this.retryMs > 0 ? undefined : 0);
    });
    this.inFlight.add(attempt);
    return attempt;
  }

  private async attempt(delivery: DeliveryRow, channel: ChannelRow, request: () => OutgoingRequest | Promise<OutgoingRequest>, digest: boolean): Promise<void> {
    const result = judged(channel.kind, await this.sendTo(channel, request));
    const movedJustBefore = this.justMoved.delete(delivery.id);
    if (!this.writable) return; // the database is closing: the claim stays, the next start sends again
    const { store } = this.options;
    const at = this.options.clock();
    // A digest's alerts are settled as it was after the lead, in slices (and at the next start if the agent stops meanwhile).
    const settle = (outcome: Parameters<typeof settleInSlices>[2]) => (digest ? settleInSlices(store, delivery.id, outcome, () => this.writable) : undefined);
    try {
      if (result.ok) {
        store.deliveries.markSent(delivery.id, at, result);
        store.channels.markWorking(channel.id);
        if (channel.failing_since !== null) this.options.events.emit({ type: 'channel.changed', companyId: channel.company_id, channelId: channel.id });
        return await settle({ sentAt: at, failed: false, answer: result });
      }
      // Deleted while this send was under way: nothing will send it again, so it fails now (never left pending).
      if (store.channels.findAny(channel.id)?.deleted_at != null) {
        const answer = { ...result, error: failedAfterChannelDeleted(result.error) };
        store.deliveries.markUnsent(delivery.id, null, answer);
        return await settle({ sentAt: null, failed: true, answer });
      }
      const asked = retryAfterMs(result.retryAfter, at);
      if (asked) this.rateLimits.hold(channel.id, channel.settings, at, at + asked);
      // Sent again at once: to where the service said (once, not in a loop), or as half the digest it found too large (digests.ts).
      const move = movedJustBefore ? null : followMove(store, channel, result, at);
      if (move) this.justMoved.add(delivery.id);
      const sized = move ? null : refusedForSize(store, delivery.id, result, at, digest);
      const answer = move ?? sized?.answer ?? result;
      const next = move || sized?.sendAgain ? at : answer.permanent ? null : nextAttemptAt(delivery.attempts + 1, at, delivery.give_up_at, asked ?? 0);
      store.deliveries.markUnsent(delivery.id, next, answer);
      await settle({ sentAt: null, failed: next === null, answer });
      store.channels.markFailing(channel.id, at);
      this.options.events.emit({ type: 'channel.changed', companyId: channel.company_id, channelId: channel.id });
      popupWhenFailingLong(store, this.options.notifier, channel, at, result.error);
    } catch (error) {
      // Most likely a full disk: the claim stays until its end (the attempt's timeout), then the delivery is sent again.
      this.options.log(`Delivery ${delivery.id}: cannot record the result: ${describeError(error)}`, { level: 'error', deliveryId: delivery.id });
      this.retryMs = Math.max(this.retryMs, FIRST_RETRY_MS);
    }
  }

  /** What a message through `channel` is built with. */
  private context(channel: ChannelRow, deliveryKey: string): MessageContext {
    return { dashboardUrl: this.options.dashboardUrl(), adminZone: this.options.adminZone, deliveryKey, channelName: channel.name };
  }

  /** Builds the request (a digest's in slices, agent/engine/slices.ts) and sends it. */
  private async sendTo(channel: ChannelRow, request: () => OutgoingRequest | Promise<OutgoingRequest>): Promise<AttemptResult> {
    const secrets = channelSecretValues(channelKind(channel.kind), channel.settings);
    let built: OutgoingRequest;
    try {
      built = await request();
    } catch (error) {
      const message = `Cronbeat could not build this message: ${describeError(error)}`;
      return { ok: false, responseStatus: null, responseBody: null, error: message };
    }
    return send(built, { timeoutMs: this.timeoutMs, connectTimeoutMs: this.options.connectTimeoutMs, trustedCa: this.options.trustedCa }, secrets);
  }

  /** Sends a test message through `channel` now, outside the outbox, and answers what the receiver said. */
  sendTest(channel: ChannelRow): Promise<AttemptResult> {
    const notification = testNotification(channel, this.options.clock());
    return this.sendTo(channel, () => buildRequest(channel, notification, this.context(channel, randomUUID()))).then(testAnswer);
  }
}
