import type { Store } from '../db/store';
import type { PruneCursor } from '../db/notifications';
import { NOTIFICATIONS_KEPT_PER_COMPANY, pruneBefore } from '../domain/alerts/notificationRetention';
import { describeError } from '../domain/text/errorText';
import type { Log } from '../log/logger';

/** How often notifications past their retention are looked for (agent/domain/alerts/notificationRetention.ts). */
export const PRUNE_EVERY_MS = 60 * 60 * 1000;
/**
 * Notifications looked at per transaction. Each batch is its own short transaction, and the next
 * waits for the event loop to turn, so pulses and requests keep their turn between them: a first
 * run over years of notifications never holds the database for long.
 */
export const PRUNE_BATCH = 100;

export interface NotificationPruningOptions {
  store: Store;
  clock: () => number;
  log: Log;
}

/**
 * Deletes notifications that are done with and past their retention, once when started and every
 * PRUNE_EVERY_MS after, away from the pulse path: a timer of its own, in batches. Returns the
 * function that stops it.
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

  const run = async () => {
    try {
      let pruned = 0;
      for (const companyId of store.companies.ids()) pruned += await pruneCompany(companyId);
      if (pruned > 0) log(`Deleted ${pruned} notification${pruned === 1 ? '' : 's'} past their retention (read, delivered, older than kept)`, { level: 'info' });
    } catch (error) {
      // A full disk or a closed database: the next run tries again.
      if (!stopped) log(`Pruning notifications: ${describeError(error)}`, { level: 'warn' });
    }
    if (!stopped) timer = setTimeout(() => void run(), PRUNE_EVERY_MS).unref();
  };

  void run();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
