import type { Store } from '../../db/store';
import type { EventCursor, RunFacts, WindowSpans } from '../../db/reports';
import type { QuietCursor } from '../../db/quietChanges';
import { inSlices } from '../slices';
import { describeError } from '../../domain/text/errorText';
import type { AgentEvents } from '../events';
import type { Log } from '../../log/logger';
import { buildReport, isEmptyReport, type ReportData, type ReportEvent } from '../../domain/reports/numbers';
import { eachSpanBetween, type MaintenanceWindow, type WindowSpan } from '../../domain/maintenance/windows';
import { lastReportPeriod, repeatsReported, reportScheduleOf, sentThroughAt, type ReportPeriod, type ReportSchedule } from '../../domain/reports/period';

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

/** Monitors whose runs one step reads, and failures or recoveries: a few milliseconds of reading rows, then pulses are answered. */
const RUNS_SPAN = 100;
const EVENTS_PAGE = 500;
/** At one moment, a failure before its recovery. */
const EVENT_ORDER: Record<ReportEvent['kind'], number> = { failed: 0, recovered: 1, paused: 2 };

/**
 * The report of `channel` over `period`, as of `now` (sent, or previewed). Its runs (a page of
 * monitors per step) and failures are read in slices (agent/engine/slices.ts): a day of 10,000
 * monitors' runs is hundreds of thousands of rows, and pulses are answered in between.
 */
export async function channelReport(store: Store, channel: { id: number; company_id: number }, schedule: ReportSchedule, period: ReportPeriod, now: number): Promise<ReportData> {
  const ran = new Map<number, RunFacts>();
  let after = 0;
  await inSlices(() => {
    const page = store.reports.runsPage(channel.company_id, period, after, RUNS_SPAN);
    if (page === null) return false;
    for (const runs of page) ran.set(runs.monitor_id, runs);
    after += RUNS_SPAN;
    return true;
  });
  const events = new Map<number, ReportEvent[]>();
  let cursor: EventCursor | null = null;
  await inSlices(() => (cursor = store.reports.eventsPage(channel.company_id, period, cursor, EVENTS_PAGE, events)) !== null);
  // The changes no notification told (flapping, short of alert after N), among those that were told.
  let quiet: QuietCursor | null = null;
  await inSlices(() => (quiet = store.quietChanges.page(channel.company_id, period.from, quiet, EVENTS_PAGE, events)) !== null);
  for (const list of events.values()) list.sort((a, b) => a.at - b.at || EVENT_ORDER[a.kind] - EVENT_ORDER[b.kind]);
  const windows = await windowSpansInSlices(store.maintenanceWindows.windows(channel.company_id), period);
  return buildReport(schedule, period, store.reports.inputs(channel.company_id, channel.id, period, ran, events, windows), now);
}

/**
 * Each window's occurrences in the period, once for every monitor it covers, found one per step:
 * a window that opens every two minutes has 22,320 in a month, seconds of searching its schedule,
 * which held the agent (every pulse, /api/health) while a monthly report was sent or previewed.
 */
async function windowSpansInSlices(windows: MaintenanceWindow[], period: ReportPeriod): Promise<WindowSpans[]> {
  const found = windows.map((window) => ({ window, spans: [] as WindowSpan[], occurrences: eachSpanBetween(window, period.from, period.to) }));
  let current = 0;
  await inSlices(() => {
    for (; current < found.length; current++) {
      const next = found[current]!.occurrences.next();
      if (!next.done) {
        found[current]!.spans.push(next.value);
        return true;
      }
    }
    return false;
  });
  return found.map(({ window, spans }) => ({ window, spans }));
}

/**
 * Writes every report due at `now` to the outbox. A channel whose reports were just turned on
 * (or changed frequency) starts with the next whole period: its first report comes at the next
 * report time, not at once; nor is a period written that mostly repeats the last report (a new
 * report time), or one that names no monitor. Resolves to how many were written. One call at a time (startReports).
 */
export async function sendDueReports({ store, events, adminZone }: ReportContext, now: number): Promise<number> {
  let made = 0;
  for (const channel of store.reports.reportingChannels()) {
    const schedule = reportScheduleOf(JSON.parse(channel.settings) as Record<string, unknown>, adminZone);
    const period = schedule && lastReportPeriod(schedule, now);
    if (!schedule || !period) continue;
    const fresh = channel.sent_through === null || channel.sent_frequency !== schedule.frequency;
    const sentThrough = fresh ? null : sentThroughAt(channel.sent_through!, period, now);
    // Stored back, or the period after it could not be taken (a period is only ever taken forward).
    if (sentThrough !== null && sentThrough !== channel.sent_through) store.reports.rewind(channel.id, sentThrough);
    if (sentThrough !== null && sentThrough >= period.to) continue;
    // Built before its transaction (in slices); the period is taken in the transaction that stores it.
    const told = fresh || repeatsReported(period, sentThrough!);
    const report = told ? null : await channelReport(store, channel, schedule, period, now);
    const written = store.db.transaction(() => {
      // An empty period is done too: the next report covers its own period, not a backlog.
      if (!store.reports.advance(channel.id, schedule.frequency, period.to) || !report || isEmptyReport(report)) return false;
      store.reports.enqueue(channel.company_id, channel.id, report, now);
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
  let running = false;
  let stopped = false;
  const check = async () => {
    // A check still building a big report is not joined by another.
    if (running || stopped) return;
    running = true;
    try {
      await sendDueReports(ctx, ctx.clock());
      failing = false;
    } catch (error) {
      // Said once per failing stretch (a full disk would say it every half minute); the next check tries again.
      if (!failing && !stopped) ctx.log(`Reports: ${describeError(error)}; trying again`, { level: 'error' });
      failing = true;
    } finally {
      running = false;
    }
  };
  void check();
  const timer = setInterval(() => void check(), REPORT_CHECK_MS);
  timer.unref?.();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
