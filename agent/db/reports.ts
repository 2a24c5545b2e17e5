import { randomUUID } from 'node:crypto';
import type { Db } from './open';
import { PULSES_KEPT_PER_MONITOR } from './pulses';
import { NOTIFIABLE_TYPE, NOTIFICATION_KINDS, REPORT_NOTIFICATION_TYPE } from '../domain/alerts/notificationKinds';
import { RETRY_FOR_MS } from '../domain/channels/delivery';
import { unionOfSpans, type ReportEvent, type ReportMonitorInput, type ReportData } from '../domain/reports/numbers';
import type { ReportPeriod } from '../domain/reports/period';
import { failingWords } from '../domain/reports/message';
import type { MonitorReason } from '../domain/alerts/alert';
import { coversMonitor, type MaintenanceWindow, type WindowSpan } from '../domain/maintenance/windows';
import { tagsOf } from './monitorLines';

/*
 * Channel reports (agent/domain/reports/): what a report is made of, read per channel (the
 * monitors whose alerts go to it), and each channel's last reported period (migration 30). A
 * report is sent as a notification of its own kind with one delivery to its channel, so the
 * outbox retries it and holds it through quiet hours as it does alerts; it is never listed.
 */

/** A maintenance window with its occurrences in a report's period (worked out once, in slices, by the engine). */
export interface WindowSpans {
  window: MaintenanceWindow;
  spans: WindowSpan[];
}

/** The union of a set of windows' occurrences, and the sets that add one more window to it. */
interface UnionNode {
  union: WindowSpan[];
  more: Map<number, UnionNode>;
}

/**
 * The time the windows covering a monitor cover (given by their places in `windows`, in order),
 * worked out once per set of windows and each set from the one without its last window: most
 * monitors share theirs, or its start (the windows for every monitor come first), and a frequent
 * window has tens of thousands of occurrences.
 */
function maintenanceBySet(windows: WindowSpans[]): (covering: number[]) => WindowSpan[] {
  const none: UnionNode = { union: [], more: new Map() };
  return (covering) => {
    let node = none;
    for (const place of covering) {
      let next = node.more.get(place);
      if (next === undefined) node.more.set(place, (next = { union: unionOfSpans([node.union, windows[place]!.spans]), more: new Map() }));
      node = next;
    }
    return node.union;
  };
}

interface MonitorFacts {
  id: number;
  name: string;
  created_at: number;
  paused_at: number | null;
  resumed_at: number | null;
  tags: string;
  is_alerted: number;
  failed_at: number | null;
  alert_reason: string;
  alert_reason_data: string | null;
  pulses_kept: number;
}

/** Where a page of failures and recoveries ended. */
export interface EventCursor {
  at: number;
  id: string;
}

/** A monitor's runs in a period: how many ended, how many failed, the longest; and when it was paused (its run history notes each pause). */
export interface RunFacts {
  monitor_id: number;
  runs: number;
  failures: number;
  longest: number | null;
  /** The pauses' times, comma-separated, in no order; null for none. */
  pauses: string | null;
}

/** A live channel whose settings ask for reports. */
export interface ReportingChannel {
  id: number;
  company_id: number;
  settings: string;
  /** The end of the last period it was sent (or was due when reports were turned on), and at which frequency; null for none yet. */
  sent_through: number | null;
  sent_frequency: string | null;
}

const EVENT_ORDER: Record<ReportEvent['kind'], number> = { failed: 0, recovered: 1, paused: 2 };

/** A monitor's failures and recoveries with its pauses among them, oldest first (a pause at the failure's moment acknowledges it). */
function withPauses(events: ReportEvent[], pauses: string | null): ReportEvent[] {
  if (pauses === null) return events;
  const paused = pauses.split(',').map((at): ReportEvent => ({ at: Number(at), kind: 'paused', reason: null }));
  return [...events, ...paused].sort((a, b) => a.at - b.at || EVENT_ORDER[a.kind] - EVENT_ORDER[b.kind]);
}

export function reportRepository(db: Db) {
  // The company's monitors whose alerts go to the channel: those routed to it, and those routed nowhere in particular (every channel).
  const monitors = db.prepare(
    `SELECT m.id, m.name, m.created_at, m.paused_at, m.resumed_at, m.tags, m.is_alerted, m.failed_at, m.alert_reason, m.alert_reason_data, m.pulses_kept
     FROM monitors m LEFT JOIN alert_routes r ON r.subject_type = 'monitor' AND r.subject_id = m.id
     WHERE m.company_id = @companyId AND m.deleted_at IS NULL
       AND (r.channel_ids IS NULL OR EXISTS (SELECT 1 FROM json_each(r.channel_ids) WHERE value = @channelId))
     ORDER BY m.id`,
  );
  // A range of each monitor's pulses_newest index: runs are what ended (a success or a failure), not a start.
  // Grouped by the monitor, walked in id order already, so no temporary tree sorts 240,000 rows; a page
  // of monitors at a time (each pulse is a row read: 10,000 monitors' day is a quarter of a second).
  const runs = db.prepare(
    `SELECT m.id AS monitor_id, sum(p.kind IN ('success', 'fail')) AS runs, sum(p.kind = 'fail') AS failures,
       max(CASE WHEN p.kind IN ('success', 'fail') THEN p.duration_ms END) AS longest,
       group_concat(CASE WHEN p.kind = 'pause' THEN p.received_at END) AS pauses
     FROM monitors m JOIN pulses p ON p.monitor_id = m.id AND p.received_at >= @from AND p.received_at < @to
     WHERE m.company_id = @companyId AND m.deleted_at IS NULL AND m.id > @after AND m.id <= @after + @span
     GROUP BY m.id`,
  );
  const lastMonitorId = db.prepare('SELECT max(id) FROM monitors WHERE company_id = ? AND deleted_at IS NULL').pluck();
  const oldestKept = db.prepare('SELECT min(received_at) FROM pulses WHERE monitor_id = ?').pluck();
  // Failures and recoveries since the period began, oldest first, a page after (@at, @id) at a time. The
  // reason of "went wrong N times in a row" is its last run's: runs missed in a row are a missed run's alert.
  const events = db.prepare(
    `SELECT json_extract(data, '$.type_id') AS monitor_id, created_at AS at, id,
       CASE type WHEN @failed THEN 'failed' ELSE 'recovered' END AS kind,
       coalesce(json_extract(alert, '$.reason.last.kind'), json_extract(alert, '$.reason.kind')) AS reason
     FROM notifications
     WHERE notifiable_id = @companyId AND created_at >= @from AND type IN (@failed, @recovered)
       AND (created_at > @at OR (created_at = @at AND id > @id))
     ORDER BY created_at, id LIMIT @limit`,
  );
  const reporting = db.prepare(
    `SELECT c.id, c.company_id, c.settings, r.sent_through, r.frequency AS sent_frequency
     FROM channels c LEFT JOIN channel_reports r ON r.channel_id = c.id
     WHERE c.deleted_at IS NULL AND json_extract(c.settings, '$.report') IN ('daily', 'weekly', 'monthly')
     ORDER BY c.id`,
  );
  const forget = db.prepare(
    `DELETE FROM channel_reports WHERE channel_id IN (SELECT id FROM channels
       WHERE deleted_at IS NOT NULL OR coalesce(json_extract(settings, '$.report'), 'off') NOT IN ('daily', 'weekly', 'monthly'))`,
  );
  // Taken only by the one caller that moves it forward: a period is reported once.
  const advance = db.prepare(
    `INSERT INTO channel_reports (channel_id, frequency, sent_through) VALUES (@channelId, @frequency, @to)
     ON CONFLICT (channel_id) DO UPDATE SET frequency = excluded.frequency, sent_through = excluded.sent_through
       WHERE channel_reports.frequency != excluded.frequency OR channel_reports.sent_through < excluded.sent_through`,
  );
  // The one way back: a period reported by a clock that ran ahead (sendReports.ts, sentThroughAt).
  const rewind = db.prepare('UPDATE channel_reports SET sent_through = @to WHERE channel_id = @channelId AND sent_through > @to');
  const insertNotification = db.prepare(
    `INSERT INTO notifications (id, type, notifiable_type, notifiable_id, data, alert, read_at, created_at, updated_at)
     VALUES (@id, @type, @notifiableType, @companyId, @data, NULL, @now, @now, @now)`,
  );
  // folded_into 0 (no delivery's id): never folded into a digest of alerts, never counted in a burst.
  const insertDelivery = db.prepare(
    `INSERT INTO deliveries (uuid, notification_id, channel_id, status, next_attempt_at, give_up_at, created_at, folded_into)
     VALUES (@uuid, @notificationId, @channelId, 'pending', @now, @giveUpAt, @now, 0)`,
  );

  return {
    /**
     * The runs in `period` of the company's monitors with ids in (after, after + span]: one step of
     * reading them all (runsInSlices in agent/engine/reports/). Null past the last monitor.
     */
    runsPage(companyId: number, period: ReportPeriod, after: number, span: number): RunFacts[] | null {
      if (after >= (lastMonitorId.get(companyId) as number | null ?? 0)) return null;
      return runs.all({ companyId, from: period.from, to: period.to, after, span }) as RunFacts[];
    },
    /**
     * The company's monitor failures and recoveries from the period's start on, after `after` (null:
     * from the first), at most `limit`, oldest first, added to `byMonitor`; the last one read, or
     * null when none was left.
     */
    eventsPage(companyId: number, period: ReportPeriod, after: EventCursor | null, limit: number, byMonitor: Map<number, ReportEvent[]>): EventCursor | null {
      const failed = NOTIFICATION_KINDS.monitorFailed.type;
      const recovered = NOTIFICATION_KINDS.monitorRecovered.type;
      const rows = events.all({ companyId, from: period.from, failed, recovered, at: after?.at ?? -1, id: after?.id ?? '', limit }) as Array<
        ReportEvent & EventCursor & { monitor_id: number }
      >;
      for (const e of rows) {
        const list = byMonitor.get(e.monitor_id);
        const event = { at: e.at, kind: e.kind, reason: e.reason };
        if (list) list.push(event);
        else byMonitor.set(e.monitor_id, [event]);
      }
      const last = rows[rows.length - 1];
      return rows.length < limit || !last ? null : { at: last.at, id: last.id };
    },
    /** What the report of `channelId` is made of, given its monitors' runs and events (failing now: as the store says now). */
    inputs(
      companyId: number,
      channelId: number,
      period: ReportPeriod,
      ran: Map<number, RunFacts>,
      byMonitor: Map<number, ReportEvent[]>,
      windows: ReadonlyArray<WindowSpans>,
    ): ReportMonitorInput[] {
      const rows = monitors.all({ companyId, channelId }) as MonitorFacts[];
      // Windows for every monitor first: every monitor's set of windows starts with them.
      const forEvery = (w: WindowSpans) => w.window.monitorIds.length === 0 && w.window.tags.length === 0;
      const spans = windows.filter((w) => w.spans.length > 0).sort((a, b) => Number(forEvery(b)) - Number(forEvery(a)));
      const maintenanceOf = maintenanceBySet(spans);
      return rows.map((m) => {
        const tags = tagsOf(m);
        const r = ran.get(m.id);
        // Only a monitor whose history is full may have lost pulses of the period.
        const oldest = m.pulses_kept >= PULSES_KEPT_PER_MONITOR ? (oldestKept.get(m.id) as number | null) : null;
        const reason = m.alert_reason_data === null ? null : (JSON.parse(m.alert_reason_data) as MonitorReason);
        return {
          id: m.id,
          name: m.name,
          created_at: m.created_at,
          paused: m.paused_at !== null,
          // Resumed since the period began: paused when it began, or paused and resumed within it.
          paused_in_period: m.paused_at !== null || (m.resumed_at !== null && m.resumed_at >= period.from),
          runs: r?.runs ?? 0,
          failures: r?.failures ?? 0,
          longest_run_ms: r?.longest ?? null,
          history_from: oldest !== null && oldest > period.from ? oldest : null,
          events: withPauses(byMonitor.get(m.id) ?? [], r?.pauses ?? null),
          maintenance: maintenanceOf(spans.flatMap((w, i) => (coversMonitor(w.window, { id: m.id, tags }) ? [i] : []))),
          failing: m.is_alerted ? { since: m.failed_at, reason: failingWords(reason, m.alert_reason) } : null,
        };
      });
    },
    /** Live channels that want reports, with what they were last sent; forgets the periods of channels that no longer do. */
    reportingChannels(): ReportingChannel[] {
      forget.run();
      return reporting.all() as ReportingChannel[];
    },
    /** Records that the channel's reports at `frequency` are done through `to`; false when another caller did it first. */
    advance(channelId: number, frequency: string, to: number): boolean {
      return advance.run({ channelId, frequency, to }).changes === 1;
    },
    /** Moves what the channel's reports are done through back to `to` (a clock set back); false when it was not later. */
    rewind(channelId: number, to: number): boolean {
      return rewind.run({ channelId, to }).changes === 1;
    },
    /** Writes the report as a notification (never listed) with one delivery to its channel. Call it in the advance's transaction. */
    enqueue(companyId: number, channelId: number, report: ReportData, now: number): string {
      const id = randomUUID();
      insertNotification.run({ id, type: REPORT_NOTIFICATION_TYPE, notifiableType: NOTIFIABLE_TYPE, companyId, data: JSON.stringify(report), now });
      insertDelivery.run({ uuid: randomUUID(), notificationId: id, channelId, now, giveUpAt: now + RETRY_FOR_MS });
      return id;
    },
  };
}

export type ReportRepository = ReturnType<typeof reportRepository>;
