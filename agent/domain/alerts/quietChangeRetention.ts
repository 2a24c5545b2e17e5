/*
 * How long quiet changes are kept (agent/db/quietChanges.ts: a monitor's changes between failed
 * and fine that raised no notification, written by flapping and alert after N). Nothing deleted
 * them: a flapping fleet on an agent that runs for years grew the table without end. Only reports
 * read them, from the start of the period a report covers (agent/engine/reports/), and the
 * furthest back a report reaches is a monthly one sent late: an agent down through the 1st's
 * report time sends, when it starts just before the next 1st, the month before last
 * (lastReportPeriod in agent/domain/reports/period.ts), whose start is up to 31 + 31 days and a
 * daylight-saving hour back. A month more of margin (a clock a few weeks ahead when it prunes)
 * makes 93 days; an older change is in no period a report can cover.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** A quiet change goes at this age: two of the longest months a monthly report may read, and one more. */
export const QUIET_CHANGE_RETENTION_DAYS = 93;

/** Quiet changes made before the returned time go: no report made at `now` or later reads them. */
export function quietChangesPruneBefore(now: number): number {
  return now - QUIET_CHANGE_RETENTION_DAYS * DAY_MS;
}
