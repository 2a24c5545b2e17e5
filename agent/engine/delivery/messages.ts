import type { ChannelRow } from '../../db/channels';
import type { NotificationData } from '../../domain/alerts/notificationKinds';
import type { ChannelKind } from '../../contract/channels';
import { toApiTimestamp } from '../../domain/time/apiTimestamps';
import type { Alert } from '../../domain/alerts/alert';
import { alertMessage, subjectLink } from '../../domain/alerts/messageLimits';
import { webhookAlert } from '../../domain/alerts/payload';
import { digestMessage, digestWebhookAlert, webhookDigestJson, type DigestEntry } from '../../domain/alerts/digestMessage';
import { maskAlertSecrets } from '../../domain/channels/secretMask';
import type { ReportData } from '../../domain/reports/numbers';
import { REPORT_NOTIFICATION_TYPE } from '../../domain/alerts/notificationKinds';
import { reportMessage } from '../../domain/reports/message';
import { webhookReport } from '../../domain/reports/payload';
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

/** Whether `channel` is sent job output with secrets masked (agent/domain/channels/secretMask.ts): unless its mask_secrets is false. */
export const masksSecrets = (channel: AnyChannel) => channel.settings.mask_secrets !== false;

/** `alert` as `channel` is sent it: masked once here, so every kind's layout and a webhook's JSON get the same. */
export const channelAlert = (channel: AnyChannel, alert: Alert) => (masksSecrets(channel) ? maskAlertSecrets(alert) : alert);

/**
 * A notification as a channel is sent it: the alert as stored, what it is about (the link's page),
 * and its id and type (a webhook names them). Never the API's words: each kind renders the alert.
 */
export interface SentNotification {
  id: string;
  type: string;
  alert: Alert;
  data: Pick<NotificationData, 'type' | 'type_id'>;
}

/** The request that delivers `notification` through `channel`: its kind lays out the stored alert. */
export function buildRequest(channel: AnyChannel, notification: SentNotification, context: MessageContext): OutgoingRequest {
  const alert = channelAlert(channel, notification.alert);
  const words = { publicUrl: context.dashboardUrl, adminZone: context.adminZone ?? 'UTC' };
  const input = {
    alert,
    message: (bound: Parameters<typeof alertMessage>[3]) => alertMessage(alert, notification.data, words, bound),
    webhook: () => webhookAlert(alert, notification, subjectLink(notification.data, context.dashboardUrl)),
  };
  return moduleOf(channel.kind).alert(channel.settings as never, input, context);
}

/** A digest's alerts (as the channel is sent them: channelAlert), and (for a kind that sends every alert as data) each as its webhook JSON text, made beforehand. */
export interface DigestContent {
  entries: DigestEntry[];
  webhookAlertsJson?: string[];
}

/** Whether a digest through `channel` carries every alert as data (digestWebhookAlert), not only names: its kind says. */
export const digestAsData = (channel: AnyChannel) => moduleOf(channel.kind).digestAsData === true;

/** The request that delivers a digest of `entries` (many alerts at once, agent/domain/alerts/digest.ts) through `channel`. */
export function buildDigestRequest(channel: AnyChannel, { entries, webhookAlertsJson }: DigestContent, context: MessageContext, at: number): OutgoingRequest {
  const alertsJson = () => webhookAlertsJson ?? entries.map((entry) => JSON.stringify(digestWebhookAlert(entry, context.dashboardUrl)));
  const input = {
    message: (maxNames: number) => digestMessage(entries, context.dashboardUrl, maxNames),
    webhookJson: () => webhookDigestJson(entries, context.dashboardUrl, at, alertsJson()),
  };
  return moduleOf(channel.kind).digest(channel.settings as never, input, context);
}

/** The report a notification row carries, when it is a channel report (agent/db/reports.ts); null for any other. */
export const reportOf = (row: { type: string; data: unknown }): ReportData | null => (row.type === REPORT_NOTIFICATION_TYPE ? (row.data as ReportData) : null);

/** The request that delivers a daily, weekly or monthly `report` (agent/domain/reports/) through `channel`. */
export function buildReportRequest(channel: AnyChannel, report: ReportData, context: MessageContext): OutgoingRequest {
  const input = { message: () => reportMessage(report, context.dashboardUrl), webhook: () => webhookReport(report, context.dashboardUrl) };
  return moduleOf(channel.kind).report(channel.settings as never, input, context);
}

/** A channel's test message (POST /api/channels/{id}/test): not stored, not in the outbox, laid out like any alert. */
export function testNotification(channel: Pick<ChannelRow, 'name'>, now: number): SentNotification {
  return {
    id: `test-${now}`,
    type: 'App\\Notifications\\TestNotification',
    data: { type: 'server', type_id: 0 },
    alert: {
      event: 'test',
      at: toApiTimestamp(now),
      reason: { kind: 'other', title: 'Cronbeat test message', description: `If you can read this, the channel "${channel.name}" works.` },
      monitor: null,
      server: null,
      run: null,
      expected_at: null,
    },
  };
}
