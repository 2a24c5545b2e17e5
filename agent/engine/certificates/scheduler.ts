import type { CertificateRow } from '../../db/certificates';
import type { CheckObservation } from '../../domain/certificates/status';
import type { CertificateCheck } from './checker';
import { recordCheck, type RecordContext } from './record';
import type { Log } from '../../log/logger';
import { describeError } from '../../domain/text/errorText';

export const CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;
export const MAX_CONCURRENT_CHECKS = 4;
const POLL_MS = 60_000;
/**
 * A scheduled check that suddenly cannot connect is tried again this much later before anyone
 * is told: after sleep the network is often not back yet, and a blip is not news.
 */
export const CONFIRM_UNREACHABLE_MS = 5 * 60_000;
/** Due certificates taken per poll; the rest wait for the next one. */
const BATCH = 100;

export interface CertificateSchedulerOptions extends RecordContext {
  checker: CertificateCheck;
  clock: () => number;
  log?: Log;
  concurrency?: number;
  intervalMs?: number;
  pollMs?: number;
}

interface Job {
  promise: Promise<CertificateRow | null>;
  resolve(row: CertificateRow | null): void;
  /** Asked for by someone waiting for the answer (API), not by the clock. */
  urgent: boolean;
}

/**
 * Checks every live certificate when it is due (at creation, then every 6 hours), at most 4 at
 * once, and on demand, at once. A scheduled check that newly cannot connect is confirmed 5
 * minutes later before it counts; an on-demand one counts at once. Checks are network I/O on
 * their own timer, so a slow host holds one of the 4 slots for at most the checker's timeout and
 * never the monitor loop; a check someone waits for takes no slot, so hosts that stall never
 * hold it up (there are no more of those than certificates, and one of each at a time).
 */
export class CertificateScheduler {
  private readonly jobs = new Map<number, Job>();
  /** Scheduled checks waiting for a slot. */
  private readonly queue: number[] = [];
  private readonly inFlight = new Set<AbortController>();
  /** Certificates whose scheduled check just failed to connect, awaiting the confirming check. */
  private readonly unconfirmed = new Set<number>();
  private running = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly concurrency: number;
  private readonly intervalMs: number;
  private readonly log: Log;

  constructor(private readonly options: CertificateSchedulerOptions) {
    this.concurrency = options.concurrency ?? MAX_CONCURRENT_CHECKS;
    this.intervalMs = options.intervalMs ?? CHECK_INTERVAL_MS;
    this.log = options.log ?? (() => {});
  }

  /** Starts polling for due certificates, at once (catching up after a restart or sleep) and then every minute. */
  start(): void {
    const poll = () => {
      try {
        void this.checkDue();
      } catch (error) {
        // A busy or closing database must not take the agent down; the next poll tries again.
        this.log(`certificate checks: ${describeError(error)}`, { level: 'error' });
      }
    };
    poll();
    this.timer = setInterval(poll, this.options.pollMs ?? POLL_MS);
    this.timer.unref();
  }

  /** Queues every due certificate; resolves when those checks are done. */
  checkDue(): Promise<Array<CertificateRow | null>> {
    if (this.stopped) return Promise.resolve([]);
    const now = this.options.clock();
    const ids = this.options.store.certificates.due(now, BATCH, now + this.intervalMs);
    return Promise.all(ids.map((id) => this.enqueue(id, false)));
  }

  /**
   * Checks one certificate ahead of the scheduled ones and resolves with its updated row;
   * joins a check of it already under way. Null when it was deleted or the scheduler stopped.
   */
  checkNow(id: number): Promise<CertificateRow | null> {
    return this.enqueue(id, true);
  }

  /** Stops polling, cancels checks under way and waits for them; queued checks resolve null. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    for (const id of this.queue.splice(0)) this.settle(id, null);
    for (const controller of this.inFlight) controller.abort();
    await Promise.all([...this.jobs.values()].map((job) => job.promise));
  }

  private enqueue(id: number, urgent: boolean): Promise<CertificateRow | null> {
    const existing = this.jobs.get(id);
    if (existing) {
      if (urgent && !existing.urgent) this.promote(id, existing);
      return existing.promise;
    }
    if (this.stopped) return Promise.resolve(null);
    let resolve!: Job['resolve'];
    const promise = new Promise<CertificateRow | null>((r) => (resolve = r));
    this.jobs.set(id, { promise, resolve, urgent });
    if (urgent) this.launch(id, false);
    else {
      this.queue.push(id);
      this.pump();
    }
    return promise;
  }

  /** A scheduled check someone now waits for: started at once if it was still queued, and no confirmation delay. */
  private promote(id: number, job: Job): void {
    job.urgent = true;
    const queued = this.queue.indexOf(id);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.launch(id, false);
    }
  }

  private pump(): void {
    while (this.running < this.concurrency && this.queue.length > 0) this.launch(this.queue.shift()!, true);
  }

  private launch(id: number, inSlot: boolean): void {
    if (inSlot) this.running++;
    this.run(id)
      .catch((error: unknown) => {
        this.log(`certificate check ${id} failed: ${describeError(error)}`, { level: 'warn' });
        return null;
      })
      .then((row) => {
        if (inSlot) this.running--;
        this.settle(id, row);
        this.pump();
      });
  }

  private needsConfirmation(row: CertificateRow, observation: CheckObservation): boolean {
    const job = this.jobs.get(row.id);
    const wasReachable = row.status !== 'unreachable' && row.status !== 'pending';
    return !observation.reachable && wasReachable && !job?.urgent && !this.unconfirmed.has(row.id);
  }

  private settle(id: number, row: CertificateRow | null): void {
    this.jobs.get(id)?.resolve(row);
    this.jobs.delete(id);
  }

  private async run(id: number): Promise<CertificateRow | null> {
    const row = this.options.store.certificates.findLive(id);
    if (!row) return null;
    const controller = new AbortController();
    this.inFlight.add(controller);
    try {
      const observation = await this.options.checker.check(row.hostname, row.port, controller.signal);
      if (this.stopped) return null;
      const now = this.options.clock();
      if (this.needsConfirmation(row, observation)) {
        this.unconfirmed.add(id);
        this.options.store.certificates.postpone(id, now + CONFIRM_UNREACHABLE_MS);
        return this.options.store.certificates.findLive(id);
      }
      this.unconfirmed.delete(id);
      return recordCheck(this.options, id, observation, now, this.intervalMs);
    } finally {
      this.inFlight.delete(controller);
    }
  }
}

/** What the API needs of the scheduler: a check now, answering the updated row. */
export type CertificateChecks = Pick<CertificateScheduler, 'checkNow'>;
