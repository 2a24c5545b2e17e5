import type { Alert, AlertMonitor, AlertReason, AlertRun, AlertServer } from './alert';
import { alertTitle, whatHappened } from './words';

/*
 * The JSON a webhook receives (docs/channels.md, "Webhook payload"): stable field names, times
 * ISO 8601 UTC, durations in milliseconds. `schema` changes only if a field changes meaning.
 */

export const WEBHOOK_SCHEMA = 'cronbeat.alert.v1';
export const DIGEST_SCHEMA = 'cronbeat.digest.v1';

export interface WebhookAlert {
  schema: typeof WEBHOOK_SCHEMA;
  event: Alert['event'];
  /** The notification's id (GET /api/notifications lists it). */
  notification_id: string;
  /** The notification's type, as the API names it. */
  notification_type: string;
  at: string;
  title: string;
  /** What happened, in words (UTC), for a receiver that only forwards text. */
  text: string;
  reason: AlertReason;
  monitor: AlertMonitor | null;
  server: AlertServer | null;
  run: AlertRun | null;
  expected_at: string | null;
  failing_since: string | null;
  link: string;
}

/** One alert as a webhook's JSON. */
export function webhookAlert(alert: Alert, notification: { id: string; type: string }, link: string): WebhookAlert {
  return {
    schema: WEBHOOK_SCHEMA,
    event: alert.event,
    notification_id: notification.id,
    notification_type: notification.type,
    at: alert.at,
    title: alertTitle(alert),
    text: whatHappened(alert, { adminZone: 'UTC' }),
    reason: alert.reason,
    monitor: alert.monitor,
    server: alert.server,
    run: alert.run,
    expected_at: alert.expected_at,
    failing_since: alert.failing_since ?? null,
    link,
  };
}
