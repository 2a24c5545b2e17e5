import type { Store } from '../../db/store';
import type { DeliveryRow } from '../../db/deliveries';
import type { NotificationRow } from '../../db/notifications';
import { BURST_WINDOW_MS, burstDecision, DIGEST_MAX_ALERTS } from '../../domain/digest';
import { alertOf } from '../../domain/alertMessage';
import type { DigestEntry } from '../../domain/digestMessage';
import { toApiTimestamp } from '../../domain/timestamps';

/*
 * Bursts in the outbox (agent/domain/digest.ts): a delivery about to be sent is sent alone, held
 * with the channel's other waiting alerts until their digest, or made the lead of a digest that
 * folds them in. A digest is its lead delivery: claimed, sent, retried and (after a crash) sent
 * again like any other, so it is delivered at least once; the alerts folded into it are settled
 * with it.
 */

export type BurstPlan = 'single' | 'digest' | 'held';

/** What to do with `delivery`, the oldest due one of its channel, at `now`; folds or holds as decided. */
export function planBurst(deliveries: Store['deliveries'], delivery: DeliveryRow, now: number): BurstPlan {
  if (delivery.folded_into === delivery.id) return 'digest';
  // A retry was decided on already; only fresh alerts are folded.
  if (delivery.attempts > 0 || delivery.folded_into !== null) return 'single';
  const burst = deliveries.burstOf(delivery.channel_id, now, BURST_WINDOW_MS);
  const decision = burstDecision(burst, now);
  if (decision.action === 'send') return 'single';
  if (decision.action === 'hold') {
    deliveries.holdWaiting(delivery.channel_id, decision.until);
    return 'held';
  }
  // A "digest" of one is that alert.
  if (burst.waiting <= 1) return 'single';
  deliveries.fold(delivery.channel_id, delivery.id, DIGEST_MAX_ALERTS);
  return 'digest';
}

/** How many of a digest's alerts are read at once. */
const DIGEST_PAGE = 1000;

/** The alerts of the digest led by `leadId`, in the order they came; notifications gone are left out. */
export function digestEntries(store: Pick<Store, 'notifications'>, companyId: number, leadId: number): DigestEntry[] {
  const entries: DigestEntry[] = [];
  let after: number | null = 0;
  while (after !== null) {
    const page = store.notifications.digestPage(companyId, leadId, after, DIGEST_PAGE);
    for (const row of page.rows) entries.push(digestEntry(row));
    after = page.lastDeliveryId;
  }
  return entries;
}

function digestEntry(row: NotificationRow): DigestEntry {
  const notification = { id: row.id, type: row.type, data: row.data };
  return { alert: row.alert ?? alertOf(row.data, toApiTimestamp(row.created_at)), notification };
}
