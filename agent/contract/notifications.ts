import { z } from 'zod';
import { oneOf, onlyFields } from './fields';
import { pageQuery } from './paging';
import type { Stored } from './stored';
import type { ChannelKind } from './channels';
import type { NotificationData } from '../domain/alerts/notificationKinds';
import { toApiTimestamp, toNullableApiTimestamp } from '../domain/time/apiTimestamps';

/** Which notifications a list or a count covers: `unread=1` for unread ones only, `kinds=all` for Cronbeat's own kinds besides the spec's two (the default, `kinds=spec`). */
const notificationFilterFields = {
  unread: oneOf('unread', ['1', '0', 'true', 'false']).transform((value) => value === '1' || value === 'true'),
  kinds: oneOf('kinds', ['spec', 'all']).transform((value) => value ?? 'spec'),
};

/** GET /api/notifications: a page of the notifications the filter covers. */
export const notificationListQuery = pageQuery.extend(notificationFilterFields);

/** GET /api/notifications/count: how many the list would have in all, without a page (and its envelope). */
export const notificationCountQuery = z.object(notificationFilterFields);

/** PATCH /api/notifications/{id}. */
export const notificationReadInput = onlyFields(
  z.object({
    read: z.boolean({ error: 'The read field must be true or false.' }),
  }),
);

/** A notification as the API lists it (channels are sent its stored alert, not this: agent/engine/delivery/messages.ts). */
export interface NotificationResource {
  id: string;
  type: string;
  notifiable_type: string;
  notifiable_id: number;
  data: NotificationData;
  read_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A notification as stored. */
export type StoredNotification = Stored<NotificationResource, 'read_at' | 'created_at' | 'updated_at'>;

/** The notification as the API shows it: the spec's data as written, its words made from the alert then. */
export function presentNotification(row: StoredNotification): NotificationResource {
  return {
    id: row.id,
    type: row.type,
    notifiable_type: row.notifiable_type,
    notifiable_id: row.notifiable_id,
    data: row.data,
    read_at: toNullableApiTimestamp(row.read_at),
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
  };
}

/** One delivery of a notification to a channel, as GET /api/notifications/{id}/deliveries lists it. */
export interface DeliveryResource {
  id: number;
  /** Sent as X-Cronbeat-Delivery, the same on every retry. */
  uuid: string;
  notification_id: string;
  channel: { id: number; name: string; kind: ChannelKind; deleted: boolean };
  status: DeliveryStatus;
  attempts: number;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  sent_at: string | null;
  give_up_at: string;
  last_error: string | null;
  response_status: number | null;
  response_body: string | null;
  created_at: string;
  /** While the channel's quiet hours hold this waiting delivery: when they end (it is sent then); else null. */
  held_until: string | null;
}

/** Where a delivery stands: waiting for its next attempt, being sent, sent, or given up. */
export const DELIVERY_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
