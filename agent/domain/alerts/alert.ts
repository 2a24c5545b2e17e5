import type { MissedDeadline } from '../monitors/dueTime';
import type { CertificateEventKind, CertificateStatus } from '../certificates/status';
import type { CronChange } from '../servers/jobChanges';
import { toApiTimestamp } from '../time/apiTimestamps';

/*
 * An alert as data: what happened (a reason kind and its fields), to which
 * monitor on which server, the run it is about and when that run was expected. Built once, when
 * the notification is recorded, and kept in the notification's data (`data.alert`); each edge
 * (popups, every channel kind, the dashboard, a webhook's JSON) renders it to its own words with
 * agent/domain/alerts/words.ts. Nothing reads words back. Times are ISO 8601 UTC strings, as on
 * the wire; words show them in a named zone.
 */

/** Why a monitor alerts, as data. */
export type AlertReason =
  /**
   * No pulse for the run due at `expected_at` within `grace_minutes` (of Cronbeat resuming, when `resumed_at`);
   * `last_run_at`: the last pulse that did come (null: none yet; absent in failures raised before it was kept).
   */
  | { kind: 'missed'; expected_at: string; grace_minutes: number; resumed_at: string | null; last_run_at?: string | null }
  /** A start pulse at `started_at` whose end never came: still open when the next run's grace (`grace_minutes`) ran out. */
  | { kind: 'not_finished'; started_at: string; grace_minutes: number; resumed_at: string | null }
  /** A run started at `started_at` still running after its max run time (`max_runtime_minutes`). */
  | { kind: 'stuck'; started_at: string; max_runtime_minutes: number; resumed_at: string | null }
  /** The job reported failure (`cronbeat run` with a non-zero exit, `ping --fail`, /fail). */
  | { kind: 'failed'; exit_code: number | null }
  /** A success after a failure that began at `failed_since` (null when not known). */
  | { kind: 'recovered'; failed_since: string | null; exit_code: number | null }
  /**
   * The `times`-th failure in a row of a monitor that alerts after that many: the due times of the failed runs
   * (`runs`, oldest first; the failure's own time for a run off schedule) and the last failure's reason.
   */
  | { kind: 'failed_times'; times: number; runs: string[]; last: MonitorReason }
  /**
   * Alerts folded: the monitor changed between failed and fine `changes` times within `window_minutes`
   * (since `since`); it is `failed` now or not. Nothing more is said until it is steady (kind 'steady').
   */
  | { kind: 'flapping'; changes: number; since: string; window_minutes: number; failed: boolean }
  /** Steady again for `steady_minutes` after flapping since `flapping_since` (`changes` changes in all); `failed` now or not. */
  | { kind: 'steady'; flapping_since: string; changes: number; steady_minutes: number; failed: boolean; failed_since: string | null }
  /** A certificate check worth telling (`change`: its status changed, it was renewed, or an expiry reminder), as checked at the alert's `at`. */
  | {
      kind: 'certificate';
      change: CertificateEventKind;
      hostname: string;
      port: number;
      status: CertificateStatus;
      expires_at: string | null;
      issuer: string | null;
      last_error: string | null;
    }
  /** A server's crontab watcher saw a cron line of `username` added, removed or altered (the server is the alert's). */
  | { kind: 'cron_changed'; change: CronChange; username: string; command: string; previous_command: string | null; server_identifier: string }
  /** A server's crontab watcher last reported at `last_report_at` and has been quiet since. */
  | { kind: 'server_quiet'; server_identifier: string; last_report_at: string; interval_seconds: number | null; watcher?: string }
  /** A quiet watcher reported again at `last_report_at`, its report before that at `previous_report_at`. */
  | { kind: 'server_reporting'; server_identifier: string; last_report_at: string; previous_report_at: string; interval_seconds: number | null; watcher?: string }
  /** The words alone: a channel's test message, and notifications stored before their reasons were kept as data. */
  | { kind: 'other'; title: string; description: string };

export type AlertReasonKind = AlertReason['kind'];

/** A reason that is not about a monitor's run: told in its own title and description (noticeWords.ts). */
export type NoticeReason = Extract<AlertReason, { kind: 'certificate' | 'cron_changed' | 'server_quiet' | 'server_reporting' | 'other' }>;

const NOTICE_KINDS: ReadonlySet<AlertReasonKind> = new Set(['certificate', 'cron_changed', 'server_quiet', 'server_reporting', 'other']);

export function isNoticeReason(reason: AlertReason): reason is NoticeReason {
  return NOTICE_KINDS.has(reason.kind);
}

/** Why a monitor is failed right now, as data: what it keeps beside its alert_reason words. */
export type MonitorReason = Extract<AlertReason, { kind: 'missed' | 'not_finished' | 'stuck' | 'failed' }>;

export interface AlertMonitor {
  id: number;
  name: string;
  /** The monitor's slug and tags, where it has them (auto-provisioned monitors). */
  slug: string | null;
  tags: string[];
  schedule: string;
  timezone: string;
  grace_minutes: number;
}

export interface AlertServer {
  id: number | null;
  name: string;
}

/** The run an alert is about: as much of it as is known. */
export interface AlertRun {
  started_at: string | null;
  ended_at: string | null;
  duration_ms: number | null;
  exit_code: number | null;
  /** What the job said: its --message or fail body, or the end of its output (at most ALERT_OUTPUT_CHARS). */
  output_tail: string | null;
  /** True when the job said more than output_tail keeps. */
  output_truncated: boolean;
}

/**
 * An alert's event: a monitor failed or recovered, a failure still unresolved (a reminder), a monitor
 * flapping (its alerts folded) or steady again after it, or any other notification.
 */
export type AlertEvent =
  | 'monitor.failed'
  | 'monitor.recovered'
  | 'monitor.still_failing'
  | 'monitor.flapping'
  | 'monitor.steady'
  | 'certificate'
  | 'server'
  | 'test';

export interface Alert {
  event: AlertEvent;
  /** When it happened. */
  at: string;
  reason: AlertReason;
  monitor: AlertMonitor | null;
  server: AlertServer | null;
  run: AlertRun | null;
  /** When the run it is about was due; null when there is no schedule to speak of. */
  expected_at: string | null;
  /** For a reminder: since when the monitor has been failing. */
  failing_since?: string | null;
}

/** How much of what a job said an alert keeps: the end, where errors are. Channels show less (alertWords.ts). */
export const ALERT_OUTPUT_CHARS = 4000;

/** The end of `text` (at most ALERT_OUTPUT_CHARS, cut at a line start when one is near); null for none. */
export function outputTail(text: string | null | undefined): { output_tail: string | null; output_truncated: boolean } {
  const trimmed = (text ?? '').replace(/\s+$/, '');
  if (trimmed === '') return { output_tail: null, output_truncated: false };
  if (trimmed.length <= ALERT_OUTPUT_CHARS) return { output_tail: trimmed, output_truncated: false };
  let cut = trimmed.slice(-ALERT_OUTPUT_CHARS);
  const newline = cut.indexOf('\n');
  if (newline >= 0 && newline < 200) cut = cut.slice(newline + 1);
  return { output_tail: cut, output_truncated: true };
}

/** The facts of a monitor an alert names (a monitor row has them all). */
export interface AlertedMonitor {
  id: number;
  name: string;
  schedule: string;
  timezone: string;
  duration: number;
  slug?: string | null;
  tags?: string[] | string | null;
}

/** A stored tags value as a list: space-separated (monitors' tags column) or a list already. */
function tagList(tags: AlertedMonitor['tags']): string[] {
  if (Array.isArray(tags)) return tags;
  return typeof tags === 'string' ? tags.split(/\s+/).filter(Boolean) : [];
}

export function alertMonitor(monitor: AlertedMonitor): AlertMonitor {
  return {
    id: monitor.id,
    name: monitor.name,
    slug: monitor.slug ?? null,
    tags: tagList(monitor.tags),
    schedule: monitor.schedule,
    timezone: monitor.timezone,
    grace_minutes: monitor.duration,
  };
}

/** The server a monitor runs on, as its line's --server tagged it ("server:web-1"); null when none says. */
export function alertServer(monitor: Pick<AlertedMonitor, 'tags'>): AlertServer | null {
  const tag = tagList(monitor.tags).find((t) => t.startsWith('server:') && t.length > 'server:'.length);
  return tag ? { id: null, name: tag.slice('server:'.length) } : null;
}

/** The reason of a missed deadline (agent/domain/monitors/dueTime.ts), as data; `lastRunAt`: the monitor's last pulse (ms), null for none. */
export function missedReason(missed: MissedDeadline, graceMinutes: number, lastRunAt?: number | null): MonitorReason {
  const resumed_at = missed.resumedAt === undefined ? null : toApiTimestamp(missed.resumedAt);
  if (missed.kind === 'stuck') {
    return { kind: 'stuck', started_at: toApiTimestamp(missed.startedAt), max_runtime_minutes: missed.maxRuntimeMinutes, resumed_at };
  }
  if (missed.kind === 'not_finished') {
    return { kind: 'not_finished', started_at: toApiTimestamp(missed.startedAt), grace_minutes: graceMinutes, resumed_at };
  }
  const last = lastRunAt === undefined ? {} : { last_run_at: lastRunAt === null ? null : toApiTimestamp(lastRunAt) };
  return { kind: 'missed', expected_at: toApiTimestamp(missed.runAt), grace_minutes: graceMinutes, resumed_at, ...last };
}

/** A run as the pulse that ended it tells it (times in ms). */
export interface EndedRun {
  startedAt: number | null;
  endedAt: number;
  durationMs: number | null;
  exitCode: number | null;
  body: string | null;
  bodyTruncated?: boolean;
}

export function alertRun(run: EndedRun): AlertRun {
  const tail = outputTail(run.body);
  return {
    started_at: run.startedAt === null ? null : toApiTimestamp(run.startedAt),
    ended_at: toApiTimestamp(run.endedAt),
    duration_ms: run.durationMs,
    exit_code: run.exitCode,
    output_tail: tail.output_tail,
    output_truncated: tail.output_truncated || Boolean(run.bodyTruncated && tail.output_tail),
  };
}

/** The run a missed deadline is about: a started run (stuck, or never ended) has a start; a missed one has none. */
export function missedRun(missed: MissedDeadline): AlertRun | null {
  if (missed.kind === 'no_pulse') return null;
  return {
    started_at: toApiTimestamp(missed.startedAt),
    ended_at: null,
    duration_ms: null,
    exit_code: null,
    output_tail: null,
    output_truncated: false,
  };
}

/** Milliseconds of an alert time (ISO UTC); NaN never escapes: null for none or a bad value. */
export function alertMs(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}
