import type { Store } from '../../db/store';
import type { ChannelRow } from '../../db/channels';
import type { Notifier } from '../popups/notifier';
import { channelFailurePopupDue } from '../../domain/channels/delivery';

/** One popup per failing stretch, once the channel has failed for an hour. */
export function popupWhenFailingLong(store: Store, notifier: Notifier, channel: ChannelRow, now: number, error: string | null): void {
  const current = store.channels.findAny(channel.id);
  if (!current || !channelFailurePopupDue(current.failing_since, now)) return;
  if (!store.channels.claimFailurePopup(channel.id, now)) return;
  notifier.show({
    title: `Alerts to "${channel.name}" are failing`,
    body: `Every delivery to this ${channel.kind} channel has failed for over an hour; Cronbeat keeps retrying. Last error: ${error ?? 'unknown'}`,
    route: '/channels',
  });
}
