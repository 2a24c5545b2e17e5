import type { Db } from './open';
import type { MonitorRow } from './monitors';
import type { MonitorStatusFacts } from '../domain/monitors/status';
import { manyRows } from './rows';
import { NOTIFICATION_KINDS } from '../domain/alerts/notificationKinds';

/** What /metrics says of a monitor: its labels, its status's facts, its last pulse and its last run. */
export interface MonitorMetricsRow extends Pick<MonitorRow, 'id' | 'name' | 'slug' | 'tags' | 'last_pulse_at' | keyof MonitorStatusFacts> {
  last_end_kind: 'success' | 'fail' | null;
  last_end_exit_code: number | null;
  last_end_duration_ms: number | null;
}

export interface ChannelMetricsRow {
  id: number;
  name: string;
  kind: string;
  waiting: number;
  failed: number;
  oldest_waiting_at: number | null;
}

/** The reads behind GET /metrics, one statement per family of facts, for one company. */
export function metricsRepository(db: Db) {
  // The last end of a run is found through the pulses_newest index: a few rows per monitor.
  // Only the columns used, read as arrays (manyRows): a scrape of 10,000 monitors builds no full rows.
  const monitors = manyRows<MonitorMetricsRow>(
    db,
    `SELECT m.id, m.name, m.slug, m.tags, m.paused_at, m.is_alerted, m.running_since, m.last_pulse_at, m.resumed_at,
            last.kind AS last_end_kind, last.exit_code AS last_end_exit_code, last.duration_ms AS last_end_duration_ms
     FROM monitors m
     LEFT JOIN pulses last ON last.id = (
       SELECT p.id FROM pulses p WHERE p.monitor_id = m.id AND p.kind IN ('success', 'fail')
       ORDER BY p.received_at DESC, p.id DESC LIMIT 1)
     WHERE m.company_id = @companyId AND m.deleted_at IS NULL AND m.id > @after
     ORDER BY m.id LIMIT @limit`,
  );
  // Failures are counted from the notifications they raised, whose rowids only grow: a counter kept
  // by the caller and brought up to date from the rows added since, a range of rowids at a time (old
  // ones pruned meanwhile stay counted; after a restart, only those kept are: a counter reset).
  const failures = db.prepare(
    `SELECT json_extract(data, '$.type_id') AS monitor_id, count(*) AS failures FROM notifications NOT INDEXED
     WHERE rowid > @after AND rowid <= @until AND notifiable_id = @companyId AND type = @type
     GROUP BY json_extract(data, '$.type_id')`,
  );
  const lastNotification = db.prepare('SELECT coalesce(max(rowid), 0) AS last FROM notifications').pluck();
  const channels = db.prepare(
    `SELECT c.id, c.name, c.kind,
       (SELECT count(*) FROM deliveries d WHERE d.channel_id = c.id AND d.status IN ('pending', 'sending')) AS waiting,
       (SELECT count(*) FROM deliveries d WHERE d.channel_id = c.id AND d.status = 'failed') AS failed,
       (SELECT min(created_at) FROM deliveries d WHERE d.channel_id = c.id AND d.status IN ('pending', 'sending')) AS oldest_waiting_at
     FROM channels c WHERE c.company_id = ? AND c.deleted_at IS NULL ORDER BY c.id`,
  );

  return {
    /** Up to `limit` of the company's live monitors with an id above `after`, by id: one page. */
    monitors(companyId: number, after: number, limit: number): MonitorMetricsRow[] {
      return monitors({ companyId, after, limit });
    },
    /** The rowid of the newest notification (0 when none). */
    lastNotification(): number {
      return lastNotification.get() as number;
    },
    /** Adds to `counts` the company's failures among the notifications with a rowid above `after`, up to `until`. */
    addFailures(counts: Map<number, number>, companyId: number, after: number, until: number): void {
      const rows = failures.all({ companyId, type: NOTIFICATION_KINDS.monitorFailed.type, after, until }) as Array<{ monitor_id: number; failures: number }>;
      for (const row of rows) counts.set(Number(row.monitor_id), (counts.get(Number(row.monitor_id)) ?? 0) + row.failures);
    },
    channels(companyId: number): ChannelMetricsRow[] {
      return channels.all(companyId) as ChannelMetricsRow[];
    },
  };
}
