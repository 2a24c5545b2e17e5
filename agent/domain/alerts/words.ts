import { alertMs, isNoticeReason, type Alert, type MonitorReason } from './alert';
import type { CertificateStatus } from '../certificates/status';
import { noticeWords, wordsOfNotice } from './noticeWords';
import { remembered } from '../time/answerCache';
import { scheduleWords } from '../schedules';
import { exitCodeMeaning } from './exitCodes';
import { PROBLEM_WORDS, problemOf, reasonPieces, writePieces } from './vocabulary';
import { describeDuration } from '../time/durations';
import { failedTimesOpening, flappingWords, lastFailureState, steadyWords, timesInARow } from './streakWords';

/*
 * An alert (agent/domain/alerts/alert.ts) in words, for people: the pieces every channel, the popup
 * and the dashboard put together in their own layout. Times are human times in a named zone
 * ("Sat 21 Nov 03:00 Europe/Paris"), never ISO strings.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string, withDate: boolean, withSeconds: boolean): Intl.DateTimeFormat {
  const key = `${zone}|${withDate}|${withSeconds}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      ...(withDate ? { weekday: 'short', day: 'numeric', month: 'short' } : {}),
      hour: '2-digit',
      minute: '2-digit',
      ...(withSeconds ? { second: '2-digit' } : {}),
      hourCycle: 'h23',
    });
    formatters.set(key, made);
  }
  return made;
}

function safeZone(zone: string): string {
  try {
    formatter(zone, false, false);
    return zone;
  } catch {
    return 'UTC';
  }
}

type HumanTimeOptions = { date?: boolean; seconds?: boolean };

/** "Sat 21 Nov 03:00 Europe/Paris" (no date: "03:00 Europe/Paris"; seconds on request). */
export const humanTime = remembered(
  // A digest of 10,000 alerts says the same few moments 10,000 times.
  1_000,
  (ms: number, zone: string, options: HumanTimeOptions = {}) => `${zone} ${ms} ${options.date ?? true} ${options.seconds ?? false}`,
  (ms: number, zone: string, options: HumanTimeOptions = {}): string => {
    const named = safeZone(zone);
    return `${formatter(named, options.date ?? true, options.seconds ?? false).format(ms).replace(',', '')} ${named}`;
  },
);

/**
 * A moment in the monitor's zone and, when it differs, the admin's: "Sat 21 Nov 03:00
 * Europe/Paris (21:00 America/New_York)"; the admin's date only when it is another day.
 */
export function timeInZones(ms: number, monitorZone: string, adminZone: string, seconds = false): string {
  const main = humanTime(ms, monitorZone, { seconds });
  if (safeZone(adminZone) === safeZone(monitorZone)) return main;
  const sameDay = formatter(safeZone(adminZone), true, false).format(ms).split(' ').slice(0, 3).join(' ') ===
    formatter(safeZone(monitorZone), true, false).format(ms).split(' ').slice(0, 3).join(' ');
  return `${main} (${humanTime(ms, adminZone, { date: !sameDay, seconds })})`;
}

/** Terminal escape sequences (colours, cursor moves, window titles): ESC [ … final, ESC ] … BEL/ST, ESC and one more. */
// eslint-disable-next-line no-control-regex
const TERMINAL_ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_BYTES = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** What a job printed as a person reads it: no terminal colours or control bytes (tabs and line ends stay). */
export function readableOutput(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(TERMINAL_ESCAPES, '').replace(CONTROL_BYTES, '');
}

/** The last `lines` lines of `text` as a person reads it, at most `chars` characters in all (the end kept); [] for none. */
export function lastLines(text: string | null, lines: number, chars: number): string[] {
  if (!text) return [];
  const all = readableOutput(text).split('\n');
  while (all.length && all[all.length - 1].trim() === '') all.pop();
  const kept: string[] = [];
  let used = 0;
  for (let i = all.length - 1; i >= 0 && kept.length < lines; i--) {
    const line = all[i];
    if (used + line.length > chars) {
      if (kept.length === 0) kept.unshift(`…${line.slice(line.length - Math.max(1, chars - 1))}`);
      break;
    }
    kept.unshift(line);
    used += line.length + 1;
  }
  return kept;
}

export type AlertTone = 'bad' | 'warn' | 'good' | 'info';

/** A certificate's news reads as the status it found: valid again or renewed is good news, an expiry coming a warning. */
const CERTIFICATE_TONES: Record<CertificateStatus, AlertTone> = {
  pending: 'info',
  valid: 'good',
  expiring: 'warn',
  expired: 'bad',
  invalid: 'bad',
  unreachable: 'bad',
};

/** How an alert reads at a glance: a failure is bad, a stuck run a warning, a recovery good. */
export function alertTone(alert: Alert): AlertTone {
  if (alert.reason.kind === 'certificate') return CERTIFICATE_TONES[alert.reason.status];
  if (isNoticeReason(alert.reason)) return alert.event === 'test' || alert.event === 'server' ? 'info' : 'bad';
  switch (alert.reason.kind) {
    case 'failed':
    case 'missed':
      return 'bad';
    case 'not_finished':
    case 'stuck':
      return 'warn';
    case 'recovered':
      return 'good';
    case 'failed_times':
      return alertTone({ ...alert, reason: alert.reason.last });
    case 'flapping':
      return 'warn';
    case 'steady':
      return alert.reason.failed ? 'bad' : 'good';
  }
}

/** The state first, as an inbox sorts it: FAILED, MISSED, STUCK, RECOVERED, STILL FAILING. */
export function alertState(alert: Alert): string {
  if (alert.event === 'monitor.still_failing') return 'STILL FAILING';
  if (isNoticeReason(alert.reason)) return alert.event === 'certificate' ? 'CERTIFICATE' : alert.event === 'server' ? 'SERVER' : 'INFO';
  if (alert.reason.kind === 'failed_times') return lastFailureState(alert.reason.last);
  if (alert.reason.kind === 'flapping') return 'FLAPPING';
  if (alert.reason.kind === 'steady') return 'STEADY';
  const problem = problemOf(alert.reason);
  if (problem) return PROBLEM_WORDS[problem].state;
  return 'RECOVERED';
}

/** "nightly-backup on web-1", or just the monitor's name when no server is known. */
export function subjectName(alert: Alert): string {
  const name = alert.monitor?.name ?? noticeWords(alert)?.title ?? 'Cronbeat';
  return alert.server ? `${name} on ${alert.server.name}` : name;
}

const exitWords = (code: number | null) => (code === null ? '' : ` (exit ${code}${exitCodeMeaning(code) ? `, ${exitCodeMeaning(code)}` : ''})`);

/**
 * A failed monitor's state after its name, in the one vocabulary: "nightly-backup missed its run",
 * "… is stuck", "… failed" (the job said so; also for a failure from before reasons were data).
 */
export function monitorStateTitle(name: string, reason: MonitorReason | null): string {
  if (reason?.kind === 'missed') return `${name} missed its run`;
  if (reason?.kind === 'not_finished' || reason?.kind === 'stuck') return `${name} is stuck`;
  return `${name} failed`;
}

/** The short line: "nightly-backup on web-1 failed (exit 3)". */
export function alertTitle(alert: Alert): string {
  const { reason } = alert;
  if (isNoticeReason(reason)) return wordsOfNotice(reason, alert).title;
  const subject = subjectName(alert);
  if (alert.event === 'monitor.still_failing') return `${subject} is still failing`;
  switch (reason.kind) {
    case 'failed':
      return `${monitorStateTitle(subject, reason)}${exitWords(reason.exit_code)}`;
    case 'missed':
    case 'not_finished':
    case 'stuck':
      return monitorStateTitle(subject, reason);
    case 'recovered':
      return `${subject} recovered`;
    case 'failed_times':
      return `${subject} went wrong ${timesInARow(reason.times)}`;
    case 'flapping':
      return `${subject} is flapping`;
    case 'steady':
      return `${subject} is steady again`;
  }
}

/** What the words need besides the alert: the admin's zone (the agent's, or the one set). */
export interface WordsContext {
  adminZone: string;
}

/** What happened, in one sentence with its times. */
export function whatHappened(alert: Alert, context: WordsContext): string {
  const { reason } = alert;
  if (isNoticeReason(reason)) return wordsOfNotice(reason, alert, context.adminZone).description;
  const zone = alert.monitor?.timezone ?? 'UTC';
  const at = (iso: string | null | undefined, seconds = false) => {
    const ms = alertMs(iso);
    return ms === null ? 'an unknown time' : timeInZones(ms, zone, context.adminZone, seconds);
  };
  const since =
    alert.event === 'monitor.still_failing' && alert.failing_since
      ? ` Failing since ${at(alert.failing_since)}${sinceFor(alert)}.`
      : '';
  const run = alert.run;
  switch (reason.kind) {
    case 'failed':
    case 'missed':
    case 'not_finished':
    case 'stuck': {
      // The one vocabulary's sentence (agent/domain/alerts/vocabulary.ts), its moments in the monitor's zone and the admin's.
      const sentence = writePieces(reasonPieces(reason, alertMs(alert.expected_at)), (ms) => timeInZones(ms, zone, context.adminZone));
      const took = reason.kind === 'failed' && run?.duration_ms != null ? ` after ${describeDuration(run.duration_ms)}` : '';
      return `${sentence}${took}.${since}`;
    }
    case 'recovered': {
      const ended = alertMs(run?.ended_at ?? alert.at);
      const failedSince = alertMs(reason.failed_since);
      const after = failedSince !== null && ended !== null && ended >= failedSince ? ` after ${describeDuration(ended - failedSince)}` : '';
      const code = reason.exit_code === null ? '' : ` (exit ${reason.exit_code})`;
      return `Recovered${after}${code}.`;
    }
    case 'failed_times':
      return `${failedTimesOpening(reason, zone)}. Last: ${whatHappened({ ...alert, reason: reason.last }, context)}`;
    case 'flapping':
      return flappingWords(reason, (iso) => at(iso));
    case 'steady':
      return steadyWords(reason, (iso) => at(iso));
  }
}

function sinceFor(alert: Alert): string {
  const since = alertMs(alert.failing_since);
  const now = alertMs(alert.at);
  return since !== null && now !== null && now > since ? ` (${describeDuration(now - since)})` : '';
}

/** The schedule line: 'Schedule "0 3 * * *" (at 03:00 Europe/Paris), grace 30 min'. */
export function scheduleLine(alert: Alert): string | null {
  const monitor = alert.monitor;
  if (!monitor) return null;
  const words = scheduleWords(monitor.schedule, monitor.timezone);
  // A calendar schedule of several lines stays on the one line.
  return `Schedule "${monitor.schedule.replace(/\n/g, '; ')}" (${words ?? monitor.timezone}), grace ${describeDuration(monitor.grace_minutes * 60_000)}`;
}

/** When the run was expected, in the monitor's zone and the admin's; null when not known or already said (a missed run). */
export function expectedLine(alert: Alert, context: WordsContext): string | null {
  const ms = alertMs(alert.expected_at);
  const missed = alert.reason.kind === 'missed' || (alert.reason.kind === 'failed_times' && alert.reason.last.kind === 'missed');
  if (ms === null || !alert.monitor || missed) return null;
  return `Expected ${timeInZones(ms, alert.monitor.timezone, context.adminZone)}`;
}

/**
 * When the run ran, in the monitor's zone and the admin's: "Ran Sat 21 Nov 03:00:04–03:00:16
 * Europe/Paris (Fri 20 Nov 21:00:04 America/New_York)"; "Ran Sat 21 Nov 03:00:04 Europe/Paris, took
 * 857 ms" when it began and ended in one second; "Ended …" when its start is not known.
 */
export function ranLine(alert: Alert, context: WordsContext): string | null {
  const zone = alert.monitor?.timezone ?? 'UTC';
  const started = alertMs(alert.run?.started_at);
  const ended = alertMs(alert.run?.ended_at);
  if (ended === null) return null;
  if (started === null) return `Ended ${timeInZones(ended, zone, context.adminZone, true)}`;
  const whole = timeInZones(started, zone, context.adminZone, true);
  const endTime = formatter(safeZone(zone), false, true).format(ended);
  // "Sat 21 Nov 03:00:04 Europe/Paris (…)" becomes "Sat 21 Nov 03:00:04–03:00:16 Europe/Paris (…)".
  const startTime = formatter(safeZone(zone), false, true).format(started);
  if (startTime === endTime) {
    // Start and end in one second: a range "13:02:57–13:02:57" would read as empty, so say how long it took.
    const took = alert.run?.duration_ms ?? ended - started;
    return `Ran ${whole}, took ${describeDuration(took)}`;
  }
  const sameDay = ended - started < 86_400_000;
  return `Ran ${sameDay ? whole.replace(startTime, `${startTime}–${endTime}`) : `${whole} to ${humanTime(ended, zone, { seconds: true })}`}`;
}
