import type { ChannelRow } from '../../db/channels';
import type { NotificationResource } from '../../contract/notifications';
import type { ChannelKind } from '../../domain/channels';
import type { Alert } from '../../domain/alert';
import { alertMessage, alertOf, subjectLink } from '../../domain/alertMessage';
import { webhookAlert } from '../../domain/alertPayload';
import { digestMessage, webhookDigest, type DigestEntry } from '../../domain/digestMessage';
import { CHANNEL_KIND_MODULES } from './kinds';
import type { ChannelKindModule, MessageContext, OutgoingRequest } from './kinds/kind';

/*
 * What a channel sends (docs/channels.md shows each): the structured alert, laid out by its
 * kind's module (kinds/). Pure: transport.ts sends the request.
 */

export { SIGNATURE_HEADER, signBody, type EmailSpec, type HttpRequestSpec, type MessageContext, type OutgoingRequest } from './kinds/kind';

type AnyChannel = Pick<ChannelRow, 'kind' | 'settings'>;

function moduleOf(kind: ChannelKind): ChannelKindModule<ChannelKind> {
  return CHANNEL_KIND_MODULES[kind] as unknown as ChannelKindModule<ChannelKind>;
}

/** The request that delivers `notification` (its alert as data, when it has one) through `channel`. */
export function buildRequest(channel: AnyChannel, notification: NotificationResource, context: MessageContext, storedAlert: Alert | null = null): OutgoingRequest {
  const alert = storedAlert ?? alertOf(notification.data, notification.created_at);
  const words = { publicUrl: context.dashboardUrl, adminZone: context.adminZone ?? 'UTC' };
  const input = {
    alert,
    message: (bound: Parameters<typeof alertMessage>[3]) => alertMessage(alert, notification.data, words, bound),
    webhook: () => webhookAlert(alert, notification, subjectLink(notification.data, context.dashboardUrl)),
  };
  return moduleOf(channel.kind).alert(channel.settings as never, input, context);
}

/** The request that delivers a digest of `entries` (many alerts at once, agent/domain/digest.ts) through `channel`. */
export function buildDigestRequest(channel: AnyChannel, entries: DigestEntry[], context: MessageContext, at: number): OutgoingRequest {
  const input = {
    message: (maxNames: number) => digestMessage(entries, context.dashboardUrl, maxNames),
    webhook: () => webhookDigest(entries, context.dashboardUrl, at),
  };
  return moduleOf(channel.kind).digest(channel.settings as never, input, context);
}
