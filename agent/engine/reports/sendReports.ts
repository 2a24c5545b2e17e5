import type { Store } from '../../db/store';
import type { AgentEvents } from '../events';
import type { Log } from '../../log/logger';
import { buildReport, type ReportData } from '../../domain/reports/numbers';
import { lastReportPeriod, reportScheduleOf, type ReportPeriod, type ReportSchedule } from '../../domain/reports/period';

/*
 * Channel reports (docs/channels.md, "Reports"): each channel that asks for them gets one per
 * period, after the period ends at its report time. The period reported is stored with the
 * report's notification in one transaction, so a restart neither skips a report (one due while
 * the agent was down goes out when it starts) nor repeats one. The outbox sends it.
 */

/** How often the agent looks for due reports: a report comes at most this late. */
export const REPORT_CHECK_MS = 30_000;

export interface ReportContext {
  store: Store;
  events: AgentEvents;
  /** The zone of a channel that names none (the agent's). */
  adminZone: string;
}

/** The report of `channel` over `period`, as of `now` (sent, or previewed). */
export function channelReport(store: Store, channel: { id: number; company_id: number }, schedule: ReportSchedule, period: ReportPeriod, now: number): ReportData {
  return buildReport(schedule, period, store.reports.inputs(channel.company_id, channel.id, period), now);
}

/**
 * Writes every report due at `now` to the outbox. A channel whose reports were just turned on
 * (or changed frequency) starts with the next whole period: its first report comes at the next
 * report time, not at once. Returns how many were written.
 */
export function sendDueReports({ store, events, adminZone }: ReportContext, now: number): number {
  let made = 0;
  for (const channel of store.reports.reportingChannels()) {
    const schedule = reportScheduleOf(JSON.parse(channel.settings) as Record<string, unknown>, adminZone);
    const period = schedule && lastReportPeriod(schedule, now);
    if (!schedule || !period) continue;
    const fresh = channel.sent_through === null || channel.sent_frequency !== schedule.frequency;
    if (!fresh && channel.sent_through! >= period.to) continue;
    const written = store.db.transaction(() => {
      if (!store.reports.advance(channel.id, schedule.frequency, period.to) || fresh) return false;
      store.reports.enqueue(channel.company_id, channel.id, channelReport(store, channel, schedule, period, now), now);
      return true;
    })();
    if (!written) continue;
    made++;
    // The worker looks at the channel's outbox at once (a report is no notification to follow).
    events.emit({ type: 'channel.changed', companyId: channel.company_id, channelId: channel.id });
  }
  return made;
}

/** Looks for due reports now and every REPORT_CHECK_MS; returns the function that stops it. */
export function startReports(ctx: ReportContext & { clock: () => number; log: Log }): () => void {
  let failing = false;
  const check = () => {
    try {
      sendDueReports(ctx, ctx.clock());
      failing = false;
    } catch (error) {
      // Said once per failing stretch (a full disk would say it every half minute); the next check tries again.
      if (!failing) ctx.log(`Reports: ${error instanceof Error ? error.message : String(error)}; trying again`, { level: 'error' });
      failing = true;
    }
  };
  check();
  const timer = setInterval(check, REPORT_CHECK_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}
