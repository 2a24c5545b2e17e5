import { previousRunBefore } from '../schedules/cronSchedule';

/*
 * When a channel's report is due and which stretch of time it covers. A report covers one whole
 * period that ended at the report's time: a day (from yesterday's report time to today's), a
 * week (Monday to Monday) or a month (the 1st to the 1st), read on the clock of the report's zone,
 * so a daylight-saving night makes a day of 23 or 25 hours, never a report at 07:00 or 09:00.
 */

export const REPORT_FREQUENCIES = ['off', 'daily', 'weekly', 'monthly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];

/** Without a time of its own, a report comes at 08:00: read with the morning's first coffee, as healthchecks' come. */
export const DEFAULT_REPORT_TIME = '08:00';

export interface ReportSchedule {
  frequency: Exclude<ReportFrequency, 'off'>;
  /** "HH:MM" on the zone's clock. */
  time: string;
  timezone: string;
}

export interface ReportPeriod {
  /** The period's start (inclusive) and end (exclusive), ms. */
  from: number;
  to: number;
}

/** The schedule as cron: the report time every day, every Monday, or on every 1st. */
function cronOf({ frequency, time }: ReportSchedule): string {
  const [hour, minute] = time.split(':').map(Number);
  const days = frequency === 'daily' ? '* * *' : frequency === 'weekly' ? '* * 1' : '1 * *';
  return `${minute} ${hour} ${days}`;
}

/**
 * The last whole period that ended at or before `now`: its end is the latest report time not
 * after `now`, its start the report time before that. Null when the zone is not known.
 */
export function lastReportPeriod(schedule: ReportSchedule, now: number): ReportPeriod | null {
  const cron = cronOf(schedule);
  const to = previousRunBefore(cron, schedule.timezone, now + 1);
  const from = to === null ? null : previousRunBefore(cron, schedule.timezone, to);
  return to === null || from === null ? null : { from, to };
}

/**
 * How far a channel's reports are done on a clock that reads `now`, given the last period that
 * ended (`last`): as stored, unless the stored end is after `now`: a clock that ran ahead (a
 * wrong date at boot, set back since) reported a period that has not ended, so the reports are
 * done only through `last`, and the period after it is reported at its time, with its runs.
 */
export function sentThroughAt(sentThrough: number, last: ReportPeriod, now: number): number {
  return sentThrough > now ? Math.min(sentThrough, last.to) : sentThrough;
}

/**
 * Whether `period` would mostly tell again what the reports already told (through `sentThrough`):
 * more than half of it was reported. Only a new report time or zone makes periods overlap (a
 * daily report moved from 08:00 to 09:00 at 08:30 would come twice in an hour); such a period is
 * taken as done, and the next report covers its own whole period.
 */
export function repeatsReported(period: ReportPeriod, sentThrough: number): boolean {
  return sentThrough > period.from && period.to - sentThrough < (period.to - period.from) / 2;
}

/** The words of a frequency in a title: "Daily", "Weekly", "Monthly". */
export const frequencyWord = (frequency: ReportSchedule['frequency']) => frequency[0]!.toUpperCase() + frequency.slice(1);

/**
 * A channel's report schedule from its settings (`report`, `report_time`, `report_timezone`,
 * checked by the API), the zone defaulting to `defaultZone` (the agent's); null when it sends none.
 */
export function reportScheduleOf(settings: Record<string, unknown>, defaultZone: string): ReportSchedule | null {
  const frequency = settings.report;
  if (frequency !== 'daily' && frequency !== 'weekly' && frequency !== 'monthly') return null;
  const time = typeof settings.report_time === 'string' ? settings.report_time : DEFAULT_REPORT_TIME;
  const timezone = typeof settings.report_timezone === 'string' ? settings.report_timezone : defaultZone;
  return { frequency, time, timezone };
}
