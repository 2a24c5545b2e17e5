import { alertMs, missedReason, type Alert, type AlertReason, type MonitorReason } from './alert';
import { problemDetail, reasonPieces, writePieces, type ReasonPiece } from './vocabulary';
import type { MissedDeadline } from '../monitors/dueTime';
import { remembered } from '../time/answerCache';
import { timesInARow } from './streakWords';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timezone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timezone, formatter);
  }
  return formatter;
}

/** `ms` as wall-clock date and time in `timezone`: { date: "2026-11-21", time: "10:00" }. */
export const wallClock = remembered(
  // A burst of 10,000 failures says the same few moments 10,000 times.
  1_000,
  (ms: number, timezone: string) => `${timezone} ${ms}`,
  (ms: number, timezone: string): { date: string; time: string } => {
    const parts = Object.fromEntries(formatterFor(timezone).formatToParts(ms).map((p) => [p.type, p.value]));
    return Object.freeze({ date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` });
  },
);

/**
 * A moment for people, in the monitor's zone and in UTC:
 * "2026-11-21 10:00 Europe/Paris (09:00 UTC)", the UTC date added only when it differs.
 * A monitor in UTC gets just "2026-11-21 09:00 UTC".
 */
export function describeMoment(ms: number, timezone: string): string {
  const utc = wallClock(ms, 'UTC');
  if (timezone === 'UTC' || timezone === 'Etc/UTC') return `${utc.date} ${utc.time} UTC`;
  const local = wallClock(ms, timezone);
  const utcText = utc.date === local.date ? utc.time : `${utc.date} ${utc.time}`;
  return `${local.date} ${local.time} ${timezone} (${utcText} UTC)`;
}

export type { MonitorReason, ReasonPiece };
export { reasonPieces };

/** Whether an alert reason is one a monitor carries while failed (a recovery or another notice is not). */
export function isMonitorReason(reason: AlertReason | null | undefined): reason is MonitorReason {
  return reason?.kind === 'missed' || reason?.kind === 'not_finished' || reason?.kind === 'stuck' || reason?.kind === 'failed';
}

/** A monitor's reason as words with moments; null without data (its stored words stand). */
export function reasonPiecesOf(reason: AlertReason | null | undefined): ReasonPiece[] | null {
  return isMonitorReason(reason) ? reasonPieces(reason) : null;
}

/** What the alert of a failure after several in a row says: "Went wrong 3 times in a row (runs due …, …). Last: " and the last one's reason. */
export function failedTimesPieces(reason: Extract<AlertReason, { kind: 'failed_times' }>): ReasonPiece[] {
  // A long streak by its first two and last three, as the channels list it.
  const listed = reason.runs.length > 5 ? [...reason.runs.slice(0, 2), null, ...reason.runs.slice(-3)] : reason.runs;
  const runs = listed.flatMap((iso, i): ReasonPiece[] => [...(i === 0 ? [] : [', ']), iso === null ? '…' : { at: alertMs(iso) ?? 0 }]);
  return [`Went wrong ${timesInARow(reason.times)} (runs due `, ...runs, '). Last: ', ...reasonPieces(reason.last)];
}

/** A monitor's reason after its word, for a place that shows the word beside it (a badge): "The run due ", {at}, " did not come…". */
export function detailPiecesOf(reason: AlertReason | null | undefined): ReasonPiece[] | null {
  if (!isMonitorReason(reason)) return null;
  const [first, ...rest] = problemDetail(reason);
  return typeof first === 'string' ? [first.charAt(0).toUpperCase() + first.slice(1), ...rest] : [first, ...rest];
}

/** What a recovery notification says, a success pulse at `at` (ms) having ended a failure. */
export function recoveredPieces(at: number): ReasonPiece[] {
  return ['A successful run was reported at ', { at }, '; monitoring resumed.'];
}

/**
 * A notification's description as words with moments, from its alert as data: a failure's reason
 * (the monitor's alert_reason), a recovery's success pulse. Null for any other notice (its stored words stand).
 */
export function alertPieces(alert: Alert | null | undefined): ReasonPiece[] | null {
  if (alert?.event === 'monitor.failed' && alert.reason.kind === 'failed_times') return failedTimesPieces(alert.reason);
  if (alert?.event === 'monitor.failed' && isMonitorReason(alert.reason)) return reasonPieces(alert.reason);
  const endedAt = alertMs(alert?.run?.ended_at ?? alert?.at);
  if (alert?.event === 'monitor.recovered' && endedAt !== null) return recoveredPieces(endedAt);
  return null;
}

/** Words with moments as text: each moment in `timezone` and in UTC (describeMoment). */
export function piecesText(pieces: ReasonPiece[], timezone: string): string {
  return writePieces(pieces, (ms) => describeMoment(ms, timezone));
}

/** A monitor reason as the API's alert_reason words: each moment in `timezone` and in UTC (describeMoment). */
export function reasonText(reason: MonitorReason, timezone: string): string {
  return piecesText(reasonPieces(reason), timezone);
}

/**
 * A monitor's alert_reason words: made from its reason as data, moments in its zone; the words
 * kept from before reasons were data when it has none ('' when it is not failed).
 */
export function alertReasonWords(reason: MonitorReason | null, keptWords: string, timezone: string): string {
  return reason === null ? keptWords : reasonText(reason, timezone);
}

const wordsOfReasonJson = remembered(
  1_000,
  (json: string, timezone: string) => `${timezone} ${json}`,
  (json: string, timezone: string): string => reasonText(JSON.parse(json) as MonitorReason, timezone),
);

/**
 * alertReasonWords of a reason kept as JSON (a monitor row's alert_reason_data). A list of 10,000
 * monitors failed by one burst says the same few reasons: each is put into words once.
 */
export function alertReasonWordsOfJson(json: string | null, keptWords: string, timezone: string): string {
  // Most monitors have no reason: their words are the kept ones, with no key to build and look up.
  return json === null ? keptWords : wordsOfReasonJson(json, timezone);
}

/**
 * Why a monitor that missed `missed` is failed, e.g. "Missed: the run due 2026-11-21 10:00
 * Europe/Paris (09:00 UTC) did not come (grace 5 min); last run …": reasonText of missedReason.
 */
export function missedDeadlineReason(missed: MissedDeadline, durationMinutes: number, timezone: string, lastRunAt?: number | null): string {
  return reasonText(missedReason(missed, durationMinutes, lastRunAt), timezone);
}
