import { tagsOf } from '../../db/monitorLines';
import type { ServerRow } from '../../db/servers';
import type { ServerAlertRow } from '../../db/serverAlerts';
import type { ServerReportRow, WatcherRow } from '../../db/serverReports';
import { isQuiet } from '../../domain/servers/quietAfter';
import { reasonDataOf } from '../../db/monitors';
import type { ShownMonitorRow } from '../../db/shownMonitors';
import type { CertificateRow } from '../../db/certificates';
import type { PulseRow } from '../../db/pulses';
import type { ChannelRow } from '../../db/channels';
import type { DeliveryWithChannel } from '../../db/deliveries';
import { maskedSettings } from '../../domain/channels/settings';
import { redactValues } from '../../domain/channels/secrets';
import { monitorStatus } from '../../domain/monitors/status';
import { alertReasonWordsOfJson } from '../../domain/alerts/reasonPieces';
import { isNoticeReason, type Alert } from '../../domain/alerts/alert';
import { toApiTimestamp, toNullableApiTimestamp } from '../../domain/time/apiTimestamps';
import type { CertificateResource } from '../../contract/certificates';
import { channelKind, type ChannelResource } from '../../contract/channels';
import type { MonitorResource } from '../../contract/monitors';
import type { DeliveryResource } from '../../contract/notifications';
import type { PulseResource } from '../../contract/pulses';
import type { ServerAlertResource, ServerFields, ServerReport, ServerWatcherResource } from '../../contract/servers';
import type { MaintenanceWindowResource } from '../../contract/maintenanceWindows';
import { windowOf, type MaintenanceWindowRow } from '../../db/maintenanceWindows';
import { nextStart, windowEnd } from '../../domain/maintenance/windows';
import { DEFAULT_ALERT_AFTER, failuresOf } from '../../domain/monitors/failureStreak';
import { flapStateOf } from '../../domain/alerts/flapping';

export { presentNotification } from '../../contract/notifications';

/**
 * A notification's alert as `GET /api/notifications?kinds=all` shows it: a monitor's alert as
 * data, for the dashboard to put in words; null for the other kinds (a certificate, a server),
 * whose words the notification's title and description already are, as they always were.
 */
export function presentAlert(alert: Alert): Alert | null {
  return isNoticeReason(alert.reason) ? null : alert;
}

/*
 * Rows as the API shows them: the spec's fields in the spec's order, times as API timestamps.
 * The shapes are the contract's (agent/contract/); a field added here is added there first.
 */

export function presentServer(row: ServerRow): ServerFields {
  return {
    id: row.id,
    company_id: row.company_id,
    name: row.name,
    identifier: row.identifier,
    ip_address: row.ip_address,
    deleted_at: toNullableApiTimestamp(row.deleted_at),
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
  };
}

export function presentServerAlert(row: ServerAlertRow): ServerAlertResource {
  return {
    id: row.id,
    server_id: row.server_id,
    username: row.username,
    command: row.command,
    change: row.change,
    previous_command: row.previous_command,
    created_at: toApiTimestamp(row.created_at),
  };
}

/**
 * A monitor as the API answers it; `origin` (scheme, host and port the client used) makes its
 * pulse_url, `channelIds` are the channels it alerts (null: all). It reads nothing but these (no
 * clock, no setting, no other row): GET /api/monitors keeps its answers while they are the same
 * (monitorJsonMemo.ts), so a new input goes into the row's shown columns or into that memo's key.
 */
export function presentMonitor(row: ShownMonitorRow, origin: string, channelIds: number[] | null): MonitorResource {
  const reason = reasonDataOf(row);
  const monitor: MonitorResource = {
    id: row.id,
    name: row.name,
    company_id: row.company_id,
    project_id: row.project_id,
    token: row.token,
    timezone: row.timezone,
    schedule: row.schedule,
    last_run_at: toApiTimestamp(row.last_run_at),
    duration: row.duration,
    is_alerted: row.is_alerted,
    // Words made from the reason as data, in the monitor's zone; a failure from before data keeps its words.
    alert_reason: alertReasonWordsOfJson(row.alert_reason_data, row.alert_reason, row.timezone),
    deleted_at: toNullableApiTimestamp(row.deleted_at),
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
    // Ours, read-only: see docs/monitoring.md, "Monitor fields added by Cronbeat".
    status: monitorStatus(row),
    // A snoozed monitor's due_at is when its snooze ends, not a deadline: nothing is due while paused.
    next_due_at: row.paused_at === null ? toNullableApiTimestamp(row.due_at) : null,
    last_pulse_at: toNullableApiTimestamp(row.last_pulse_at),
    paused_at: toNullableApiTimestamp(row.paused_at),
    paused_until: toNullableApiTimestamp(row.paused_until),
    pulse_url: `${origin}/api/pulse/${row.token}`,
    // The slug a job's line matches it by (null: not made by nor matched to a line), and its tags.
    slug: row.slug,
    tags: tagsOf(row),
    // In the literal rather than added by withChannelIds: copying 10,000 objects cost the list a tenth of its time.
    channel_ids: channelIds,
    // Why it is failed, as data (alert_reason's words are made from it); null when not failed or failed before.
    alert_reason_data: reason,
  };
  // Only when set: a monitor without one answers exactly the spec's shape.
  if (row.max_runtime !== null) monitor.max_runtime = row.max_runtime;
  if (row.alert_after !== DEFAULT_ALERT_AFTER) {
    monitor.alert_after = row.alert_after;
    monitor.failures_in_a_row = row.is_alerted === 1 ? failuresOf(row.failures).length : 0;
  }
  const flapping = flapStateOf(row.flapping).since;
  if (flapping !== null) monitor.flapping_since = toApiTimestamp(flapping);
  return monitor;
}

export function presentPulse(row: PulseRow): PulseResource {
  return {
    id: row.id,
    monitor_id: row.monitor_id,
    kind: row.kind,
    exit_code: row.exit_code,
    rid: row.rid,
    received_at: toApiTimestamp(row.received_at),
    duration_ms: row.duration_ms,
    method: row.method,
    remote_address: row.remote_address,
    body: row.body,
    body_truncated: row.body_truncated === 1,
    paused_until: row.paused_until === null ? null : toApiTimestamp(row.paused_until),
  };
}

/** A certificate as the API shows it; scheduling state (reminders, next check) stays inside. */
export function presentCertificate(row: CertificateRow): CertificateResource {
  return {
    id: row.id,
    company_id: row.company_id,
    hostname: row.hostname,
    port: row.port,
    warn_days: row.warn_days,
    status: row.status,
    expires_at: toNullableApiTimestamp(row.expires_at),
    valid_from: toNullableApiTimestamp(row.valid_from),
    issuer: row.issuer,
    subject: row.subject,
    fingerprint_sha256: row.fingerprint_sha256,
    last_checked_at: toNullableApiTimestamp(row.last_checked_at),
    last_error: row.last_error,
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
    deleted_at: toNullableApiTimestamp(row.deleted_at),
  };
}

/** A notification channel; secrets masked (agent/domain/channels/settings.ts). */
export function presentChannel(row: ChannelRow): ChannelResource {
  return {
    id: row.id,
    company_id: row.company_id,
    name: row.name,
    kind: row.kind,
    settings: maskedSettings(channelKind(row.kind), row.settings),
    quiet_hours: row.quiet_hours,
    remind_every_hours: row.remind_every_hours,
    failing_since: toNullableApiTimestamp(row.failing_since),
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
  };
}

/**
 * One delivery of a notification to a channel, as GET /api/notifications/{id}/deliveries lists
 * it; the receiver's texts with the channel's `secrets` redacted.
 */
export function presentDelivery(row: DeliveryWithChannel, secrets: readonly string[] = [], heldUntil: number | null = null): DeliveryResource {
  const redact = (text: string | null) => (text === null ? null : redactValues(text, secrets));
  return {
    id: row.id,
    /** Sent as X-Cronbeat-Delivery, the same on every retry. */
    uuid: row.uuid,
    notification_id: row.notification_id,
    channel: { id: row.channel_id, name: row.channel_name, kind: row.channel_kind, deleted: row.channel_deleted === 1 },
    status: row.status,
    attempts: row.attempts,
    last_attempt_at: toNullableApiTimestamp(row.last_attempt_at),
    next_attempt_at: toNullableApiTimestamp(row.next_attempt_at),
    sent_at: toNullableApiTimestamp(row.sent_at),
    give_up_at: toApiTimestamp(row.give_up_at),
    last_error: redact(row.last_error),
    response_status: row.response_status,
    response_body: redact(row.response_body),
    created_at: toApiTimestamp(row.created_at),
    held_until: row.status === 'pending' ? toNullableApiTimestamp(heldUntil) : null,
  };
}

/** A monitor, server or certificate with the channels it alerts: null for all of the company's. */
export function withChannelIds<T extends object>(resource: T, channelIds: number[] | null): T & { channel_ids: number[] | null } {
  return { ...resource, channel_ids: channelIds };
}

/** Ours, read-only: when the server's crontab watchers last reported, and whether any of them went quiet (the report's quiet moment is the earliest of theirs). */
export function presentServerReport(report: ServerReportRow | null, now: number): ServerReport {
  return {
    last_report_at: report ? toApiTimestamp(report.last_report_at) : null,
    report_interval_seconds: report?.interval_seconds ?? null,
    watched_jobs: report?.jobs ?? null,
    quiet: report ? isQuiet(report, now) : false,
  };
}

/** Ours: one of a server's watchers, quiet by its own last report (the server is quiet while any of them is). */
export function presentServerWatcher(row: WatcherRow & { jobs: number | null }, now: number): ServerWatcherResource {
  return {
    watcher: row.watcher,
    last_report_at: toApiTimestamp(row.last_report_at),
    report_interval_seconds: row.interval_seconds,
    jobs: row.jobs,
    quiet: isQuiet(row, now),
  };
}

/** A stored window as the API answers it at `now`: whether it is under way, until when, and when it next starts. */
export function presentMaintenanceWindow(row: MaintenanceWindowRow, now: number): MaintenanceWindowResource {
  const window = windowOf(row);
  const until = windowEnd(window, now);
  return {
    id: row.id,
    company_id: row.company_id,
    name: row.name,
    kind: row.schedule === null ? 'one_off' : 'recurring',
    starts_at: toNullableApiTimestamp(row.starts_at),
    ends_at: toNullableApiTimestamp(row.ends_at),
    schedule: row.schedule,
    timezone: row.timezone,
    duration: row.duration,
    monitor_ids: [...window.monitorIds],
    tags: [...window.tags],
    active: until !== null,
    active_until: toNullableApiTimestamp(until),
    next_starts_at: toNullableApiTimestamp(nextStart(window, now)),
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
  };
}
