import type { Store } from '../db/store';
import type { PruneCursor } from '../db/notifications';
import { NOTIFICATIONS_KEPT_PER_COMPANY, pruneBefore } from '../domain/alerts/notificationRetention';
import { quietChangesPruneBefore } from '../domain/alerts/quietChangeRetention';
import { describeError } from '../domain/text/errorText';
import type { Log } from '../log/logger';

/**
 * How often notifications past their retention are looked for (agent/domain/alerts/notificationRetention.ts),
 * and quiet changes no report can read any more (agent/domain/alerts/quietChangeRetention.ts).
 */
export const PRUNE_EVERY_MS = 60 * 60 * 1000;
/**
 * Notifications looked at per transaction. Each batch is its own short transaction, and the next
 * waits for the event loop to turn, so pulses and requests keep their turn between them: a first
 * run over years of notifications never holds the database for long.
 */
export const PRUNE_BATCH = 100;
/** Quiet changes deleted per transaction: plain rows with no deliveries, so more at a time, still a millisecond or two. */
const QUIET_PRUNE_BATCH = 500;

export interface NotificationPruningOptions {
  store: Store;
  clock: () => number;
  log: Log;
}

/**
 * Deletes notifications that are done with and past their retention, and quiet changes past theirs
 * or of deleted monitors, once when started and every PRUNE_EVERY_MS after, away from the pulse
 * path: a timer of its own, in batches. Returns the function that stops it.
 */
export function startNotificationPruning({ store, clock, log }: NotificationPruningOptions): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

  const pruneCompany = async (companyId: number): Promise<number> => {
    const before = pruneBefore(clock(), store.notifications.createdAtOfNth(companyId, NOTIFICATIONS_KEPT_PER_COMPANY));
    let pruned = 0;
    let cursor: PruneCursor | null = null;
    do {
      if (stopped) break;
      const batch = store.notifications.pruneDone(companyId, before, cursor, PRUNE_BATCH);
      pruned += batch.pruned;
      cursor = batch.next;
      await turn();
    } while (cursor);
    return pruned;
  };

  /** Runs `batch` (one transaction each) with a turn of the event loop after each, until it deletes fewer than `limit`; how many went. */
  const inBatches = async (batch: () => number, limit: number): Promise<number> => {
    let pruned = 0;
    while (!stopped) {
      const went = batch();
      pruned += went;
      await turn();
      if (went < limit) break;
    }
    return pruned;
  };

  const pruneQuietChanges = async (companyId: number): Promise<number> => {
    const before = quietChangesPruneBefore(clock());
    let pruned = await inBatches(() => store.quietChanges.pruneBefore(companyId, before, QUIET_PRUNE_BATCH), QUIET_PRUNE_BATCH);
    for (const monitorId of store.quietChanges.deletedMonitorsWithChanges(companyId)) {
      pruned += await inBatches(() => store.quietChanges.pruneMonitor(monitorId, QUIET_PRUNE_BATCH), QUIET_PRUNE_BATCH);
    }
    return pruned;
  };

  const run = async () => {
    try {
      let pruned = 0;
      let quiet = 0;
      for (const companyId of store.companies.ids()) {
        pruned += await pruneCompany(companyId);
        quiet += await pruneQuietChanges(companyId);
      }
      if (pruned > 0) log(`Deleted ${pruned} notification${pruned === 1 ? '' : 's'} past their retention (read, delivered, older than kept)`, { level: 'info' });
      if (quiet > 0) log(`Deleted ${quiet} quiet change${quiet === 1 ? '' : 's'} no report reads any more (past their retention, or of deleted monitors)`, { level: 'info' });
    } catch (error) {
      // A full disk or a closed database: the next run tries again.
      if (!stopped) log(`Pruning notifications and quiet changes: ${describeError(error)}`, { level: 'warn' });
    }
    if (!stopped) timer = setTimeout(() => void run(), PRUNE_EVERY_MS).unref();
  };

  void run();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
