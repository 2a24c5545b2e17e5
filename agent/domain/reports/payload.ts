import { monitorsLink, subjectLink } from '../alerts/messageLimits';
import { toApiTimestamp } from '../time/apiTimestamps';
import { reportTitle } from './message';
import type { ReportData } from './numbers';

/** The schema a webhook's report says it follows (docs/channels.md shows one). */
export const REPORT_SCHEMA = 'cronbeat.report.v1';

const nullableTime = (ms: number | null) => (ms === null ? null : toApiTimestamp(ms));

/** A report as a webhook's JSON: every monitor's numbers as data, times as ISO 8601 UTC, each monitor's page. */
export function webhookReport(report: ReportData, publicUrl: string) {
  const link = (id: number) => subjectLink({ type: 'monitor', type_id: id }, publicUrl);
  return {
    schema: REPORT_SCHEMA,
    event: 'report' as const,
    frequency: report.frequency,
    timezone: report.timezone,
    from: toApiTimestamp(report.from),
    to: toApiTimestamp(report.to),
    made_at: toApiTimestamp(report.made_at),
    title: reportTitle(report),
    link: monitorsLink(publicUrl),
    totals: report.totals,
    monitors: report.monitors.map((m) => ({
      id: m.id,
      name: m.name,
      runs: m.runs,
      failures: m.failures,
      missed: m.missed,
      longest_run_ms: m.longest_run_ms,
      uptime_percent: m.uptime_percent,
      downtime_ms: m.downtime_ms,
      paused: m.paused,
      history_from: nullableTime(m.history_from),
      link: link(m.id),
    })),
    never_ran: report.never_ran.map((m) => ({ id: m.id, name: m.name, link: link(m.id) })),
    failing_now: report.failing_now.map((f) => ({ id: f.id, name: f.name, since: nullableTime(f.since), reason: f.reason, link: link(f.id) })),
  };
}

export type WebhookReport = ReturnType<typeof webhookReport>;
