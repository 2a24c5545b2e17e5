import type { channelRepository } from './channels';
import type { channelRoutesRepository } from './channelRoutes';
import { routingEvent } from '../domain/channels/routing';
import type { NotificationData } from '../domain/alerts/notificationKinds';
import type { AlertReason } from '../domain/alerts/alert';

export interface DeliveryRoutingRepos {
  channels: ReturnType<typeof channelRepository>;
  routes: ReturnType<typeof channelRoutesRepository>;
}

/**
 * The channels a new notification goes to: its subject's own list, or all of the company's
 * channels; a recovery goes where the subject's failure went (every channel told of it). Only live channels. Runs in
 * the notification's transaction, since it also remembers where a failure went.
 */
export function deliveryRouting({ channels, routes }: DeliveryRoutingRepos) {
  return (companyId: number, data: NotificationData, reason?: AlertReason): number[] => {
    const live = channels.liveIds(companyId);
    // No channel at all (the common case on a laptop): nothing to send, nothing to remember.
    if (live.length === 0) return [];
    const subject = { type: data.type, id: data.type_id };
    const event = routingEvent(data, reason);
    const chosen = (event === 'recovery' ? routes.takeFailureRoute(subject) : null) ?? routes.channelIds(subject) ?? live;
    const targets = chosen.filter((id) => live.includes(id));
    // A failure told again before its recovery (a certificate's expiry reminder, after its channels changed):
    // its recovery goes to every channel told of it.
    if (event === 'failure') routes.rememberFailureRoute(subject, [...new Set([...(routes.failureRoute(subject) ?? []), ...targets])]);
    return targets;
  };
}
