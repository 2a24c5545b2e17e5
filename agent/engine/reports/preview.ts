import type { Store } from '../../db/store';
import type { ChannelRow } from '../../db/channels';
import type { ReportPreviewResource } from '../../contract/reports';
import { DEFAULT_REPORT_TIME, lastReportPeriod, reportScheduleOf } from '../../domain/reports/period';
import { reportMessage, reportText } from '../../domain/reports/message';
import { toApiTimestamp } from '../../domain/time/apiTimestamps';
import { buildReportRequest } from '../delivery/messages';
import { channelReport } from './sendReports';

export interface PreviewContext {
  store: Store;
  /** The zone of a channel that names none (the agent's). */
  adminZone: string;
  /** The dashboard's address in the report's links, as a sent report has them. */
  dashboardUrl: string;
}

/**
 * The report `channel` would be sent for the last whole period of `frequency` (its own, or daily
 * when its reports are off), as of `now`: read only, nothing stored or sent.
 */
export async function reportPreview({ store, adminZone, dashboardUrl }: PreviewContext, channel: ChannelRow, frequency: ReportPreviewResource['frequency'] | undefined, now: number): Promise<ReportPreviewResource> {
  const own = reportScheduleOf(channel.settings, adminZone);
  const schedule = reportScheduleOf({ ...channel.settings, report: frequency ?? own?.frequency ?? 'daily' }, adminZone)!;
  // The zone was checked when it was stored; a zone this machine no longer knows reads as UTC.
  const period = lastReportPeriod(schedule, now) ?? lastReportPeriod({ ...schedule, timezone: 'UTC', time: DEFAULT_REPORT_TIME }, now)!;
  const report = await channelReport(store, channel, schedule, period, now);
  const message = reportMessage(report, dashboardUrl);
  const request = buildReportRequest(channel, report, { dashboardUrl, deliveryKey: 'preview', adminZone, channelName: channel.name });
  return {
    frequency: schedule.frequency,
    time: schedule.time,
    timezone: schedule.timezone,
    from: toApiTimestamp(period.from),
    to: toApiTimestamp(period.to),
    title: message.title,
    text: reportText(message, message.items.length),
    message: request.transport === 'email' ? { subject: request.mail.subject, text: request.mail.text, html: request.mail.html } : (JSON.parse(request.body) as Record<string, unknown>),
  };
}
