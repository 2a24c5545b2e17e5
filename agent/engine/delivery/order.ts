import type { Store } from '../../db/store';
import type { ChannelRow } from '../../db/channels';
import type { DeliveryRow } from '../../db/deliveries';

/**
 * What to send instead of `delivery`, due now (a new alert, or a retry), so that it overtakes none
 * its channel is retrying (a recovery sent before its failure would leave the failure as the
 * channel's last word): the oldest of those not tried since `delivery` came due, due now, tried
 * again once; null when `delivery` may go. The older ones go first one by one while the receiver
 * takes them; once it refuses one, `delivery` goes. A retry asks too: after a receiver was down,
 * whichever backoff ends first would otherwise be the first the receiver takes.
 */
export function olderFirst(store: Pick<Store, 'deliveries'>, delivery: DeliveryRow, channel: ChannelRow, now: number): DeliveryRow | null {
  const older = store.deliveries.olderRetrying(delivery, channel.failing_since === null);
  return older && store.deliveries.bringForward(older.id, now);
}
