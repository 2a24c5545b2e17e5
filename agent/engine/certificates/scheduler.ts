import type { CertificateRepository, CertificateRow } from '../../db/certificates';
import type { Db } from '../../db/open';
import type { notificationRepository } from '../../db/notifications';
import type { CheckObservation } from '../../domain/certificates';
import { classifyCertificate, decideNotification } from '../../domain/certificates';
import { NOTIFICATION_KINDS } from '../../domain/notificationKinds';
import type { AgentEvents } from '../events';
import type { Notifier } from '../notifier';
import type { CertificateCheck } from './checker';
import { describeEvent, notificationData, type CertificateSnapshot } from './messages';

export const CHECK_INTERVAL_MS = 6 * 60 * 60 * 1000;
export const MAX_CONCURRENT_CHECKS = 4;
const POLL_MS = 60_000;
/** Due certificates taken per poll; the rest wait for the next one. */
const BATCH = 100;

export interface CertificateSchedulerOptions {
  store: { db: Db; certificates: CertificateRepository; notifications: ReturnType<typeof notificationRepository> };
  checker: CertificateCheck;
  notifier: Notifier;
  events: AgentEvents;
  clock: () => number;
  log?: (line: string) => void;
  concurrency?: number;
  intervalMs?: number;
  pollMs?: number;
}

interface Job {
  promise: Promise<CertificateRow | null>;
  resolve(row: CertificateRow | null): void;
}

/**
 * Checks every live certificate when it is due (at creation, then every 6 hours) and on
 * demand, at most 4 at once. Checks are network I/O on their own timer, so a slow host holds
 * one of the 4 slots for at most the checker's timeout and never the monitor loop.
 */
export class CertificateScheduler {
  private readonly jobs = new Map<number, Job>();
  private readonly queue: number[] = [];
  private readonly inFlight = new Set<AbortController>();
  private running = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly concurrency: number;
  private readonly intervalMs: number;
  private readonly log: (line: string) => void;

  constructor(private readonly options: CertificateSchedulerOptions) {
    this.concurrency = options.concurrency ?? MAX_CONCURRENT_CHECKS;
    this.intervalMs = options.intervalMs ?? CHECK_INTERVAL_MS;
    this.log = options.log ?? (() => {});
  }

  /** Starts polling for due certificates, at once (catching up after a restart or sleep) and then every minute. */
  start(): void {
    void this.checkDue();
    this.timer = setInterval(() => void this.checkDue(), this.options.pollMs ?? POLL_MS);
    this.timer.unref();
  }

  /** Queues every due certificate; resolves when those checks are done. */
  checkDue(): Promise<Array<CertificateRow | null>> {
    if (this.stopped) return Promise.resolve([]);
    const ids = this.options.store.certificates.due(this.options.clock(), BATCH);
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
    if (existing) return existing.promise;
    if (this.stopped) return Promise.resolve(null);
    let resolve!: Job['resolve'];
    const promise = new Promise<CertificateRow | null>((r) => (resolve = r));
    this.jobs.set(id, { promise, resolve });
    if (urgent) this.queue.unshift(id);
    else this.queue.push(id);
    this.pump();
    return promise;
  }

  private pump(): void {
    while (this.running < this.concurrency && this.queue.length > 0) {
      const id = this.queue.shift()!;
      this.running++;
      this.run(id)
        .catch((error: unknown) => {
          this.log(`certificate check ${id} failed: ${error instanceof Error ? error.message : String(error)}`);
          return null;
        })
        .then((row) => {
          this.running--;
          this.settle(id, row);
          this.pump();
        });
    }
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
      return this.stopped ? null : this.record(id, observation);
    } finally {
      this.inFlight.delete(controller);
    }
  }

  /** Stores one check's outcome and, in the same transaction, the notification it deserves. */
  private record(id: number, observation: CheckObservation): CertificateRow | null {
    const { store, events, notifier } = this.options;
    const now = this.options.clock();
    const outcome = store.db.transaction(() => {
      const row = store.certificates.findLive(id);
      if (!row) return null;
      const { status, lastError } = classifyCertificate(observation, row.warn_days, now);
      const seen = observation.reachable ? observation.certificate : null;
      const decision = decideNotification(
        { status: row.status, fingerprintSha256: row.fingerprint_sha256, reminderDays: row.reminder_days },
        { status, fingerprintSha256: seen?.fingerprintSha256 ?? null, expiresAt: seen?.expiresAt ?? null },
        now,
      );
      // An unreachable host keeps showing the last certificate it served.
      const certificate = seen ?? {
        expiresAt: row.expires_at,
        validFrom: row.valid_from,
        issuer: row.issuer,
        subject: row.subject,
        fingerprintSha256: row.fingerprint_sha256,
      };
      store.certificates.recordCheck({
        id,
        status,
        ...certificate,
        lastError,
        reminderDays: decision.reminderDays,
        now,
        nextCheckAt: now + this.intervalMs,
      });
      if (!decision.event) return { row, notification: null, popup: null };
      const snapshot: CertificateSnapshot = {
        id,
        hostname: row.hostname,
        port: row.port,
        status,
        expiresAt: certificate.expiresAt,
        issuer: certificate.issuer,
        lastCheckedAt: now,
        lastError,
      };
      const notification = store.notifications.create({
        companyId: row.company_id,
        type: NOTIFICATION_KINDS.sslCertificate.type,
        data: notificationData(snapshot, decision.event, now),
        now,
      });
      const popup = decision.popup ? describeEvent(snapshot, decision.event, now) : null;
      return { row, notification, popup };
    })();
    if (!outcome) return null;
    const companyId = outcome.row.company_id;
    events.emit({ type: 'certificate.changed', companyId, certificateId: id });
    if (outcome.notification) {
      events.emit({ type: 'notification.created', companyId, notificationId: outcome.notification.id });
    }
    if (outcome.popup) notifier.show({ title: outcome.popup.title, body: outcome.popup.description, route: '/certificates' });
    return store.certificates.findLive(id);
  }
}

/** What the API needs of the scheduler: a check now, answering the updated row. */
export type CertificateChecks = Pick<CertificateScheduler, 'checkNow'>;
