import { isNoticeReason, type Alert } from './alert';
import { monitorsLink, subjectLink } from './messageLimits';
import { DIGEST_SCHEMA, webhookAlert, type WebhookAlert } from './payload';
import { alertTitle, alertTone, type AlertTone } from './words';
import type { NotificationData } from './notificationKinds';
import { toApiTimestamp } from '../time/apiTimestamps';
import { cutText, largestFitting, oneLine } from '../text/chatText';
import { PROBLEM_WORDS, PROBLEMS, problemOf } from './vocabulary';

/*
 * A digest (agent/domain/alerts/digest.ts) for people and for machines: people get counts and as many
 * names as fit the place, grouped by server, with a count and a link for the rest; a webhook
 * gets every alert as data.
 */

/**
 * One alert of a digest, with the notification it belongs to: of its data only what it is about (the
 * link's page), since a digest holds 10,000 of them at once.
 */
export interface DigestEntry {
  alert: Alert;
  notification: { id: string; type: string; data: Pick<NotificationData, 'type' | 'type_id'> };
}

/** How many monitors each kind of place names before "… N more". */
export const DIGEST_NAMES = { popup: 5, chat: 25, email: 500 } as const;

export interface DigestMessage {
  tone: AlertTone;
  /** "30 monitors failed, 7 missed, 2 recovered on 4 servers". */
  title: string;
  /** One line per server: "web-1: nightly-backup (failed, exit 3), db-vacuum (missed), … 12 more". */
  lines: string[];
  /** How many monitors each line is about (named or counted), so a place that shows fewer lines can say how many it left out. */
  counts: number[];
  /** How many monitors the lines leave unnamed. */
  unnamed: number;
  /** The monitors page, filtered to failed ones when any failed. */
  link: string;
  count: number;
}

/** A monitor's state in a digest's list, in the one vocabulary: "failed, exit 3", "missed", "stuck", "recovered". */
function shortState(alert: Alert): string {
  if (alert.event === 'monitor.still_failing') return 'still failing';
  if (isNoticeReason(alert.reason)) return alert.event;
  // The last run's word: the ones before it may have gone wrong otherwise.
  if (alert.reason.kind === 'failed_times') return `${alert.reason.times}× in a row, last ${shortState({ ...alert, reason: alert.reason.last })}`;
  if (alert.reason.kind === 'flapping') return 'flapping';
  if (alert.reason.kind === 'steady') return alert.reason.failed ? 'steady, failed' : 'steady';
  const problem = problemOf(alert.reason);
  if (problem === 'failed' && alert.reason.kind === 'failed' && alert.reason.exit_code !== null) return `failed, exit ${alert.reason.exit_code}`;
  if (problem) return PROBLEM_WORDS[problem].word;
  return alert.reason.kind === 'recovered' ? 'recovered' : alert.event;
}

/**
 * How much of a name (and of a server's) a digest's list shows: 25 names of up to 255 characters
 * would pass Slack's 3,000 characters a section and Telegram's 4,096 a message, and both refuse
 * the whole digest. A line names monitors until DIGEST_LINE_CHARS, then counts the rest.
 */
export const DIGEST_NAME_CHARS = 80;
export const DIGEST_LINE_CHARS = 400;

const shortName = (name: string) => cutText(oneLine(name), DIGEST_NAME_CHARS);

function label(alert: Alert): string {
  if (isNoticeReason(alert.reason)) return shortName(alertTitle(alert));
  return `${shortName(alert.monitor?.name ?? 'monitor')} (${shortState(alert)})`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The digest of `entries` for people, naming at most `maxNames` monitors. */
export function digestMessage(entries: DigestEntry[], publicUrl: string, maxNames: number): DigestMessage {
  const tones = entries.map((e) => alertTone(e.alert));
  const bad = tones.filter((t) => t === 'bad' || t === 'warn').length;
  const good = tones.filter((t) => t === 'good').length;
  const byServer = new Map<string, Alert[]>();
  for (const { alert } of entries) {
    const server = alert.server?.name ?? '';
    const alerts = byServer.get(server);
    // Pushed, not copied: a copy per alert made a digest of 10,000 alerts quadratic.
    if (alerts) alerts.push(alert);
    else byServer.set(server, [alert]);
  }
  // Counted in the one vocabulary: "3 monitors failed, 2 missed, 1 stuck, 4 recovered".
  const byProblem = PROBLEMS.map((problem) => ({ problem, n: entries.filter((e) => e.alert.event !== 'monitor.still_failing' && problemOf(e.alert.reason) === problem).length }));
  const stillFailing = entries.filter((e) => e.alert.event === 'monitor.still_failing').length;
  const parts = [
    ...byProblem.filter(({ n }) => n > 0).map(({ problem, n }) => ({ n, word: PROBLEM_WORDS[problem].word })),
    ...(stillFailing ? [{ n: stillFailing, word: 'still failing' }] : []),
    ...(good ? [{ n: good, word: 'recovered' }] : []),
  ];
  const other = entries.length - parts.reduce((sum, { n }) => sum + n, 0);
  const counts = [
    ...parts.map(({ n, word }, i) => (i === 0 ? `${plural(n, 'monitor')} ${word}` : `${n} ${word}`)),
    other ? plural(other, 'other alert') : '',
  ]
    .filter(Boolean)
    .join(', ');
  const servers = [...byServer.keys()].filter(Boolean).length;
  const title = `${counts}${servers > 1 ? ` on ${servers} servers` : ''}`;

  let budget = maxNames;
  const lines: string[] = [];
  const lineCounts: number[] = [];
  for (const [server, alerts] of byServer) {
    const lead = server ? `${shortName(server)}: ` : '';
    const named: string[] = [];
    let used = lead.length;
    for (const alert of alerts) {
      if (budget <= 0) break;
      const name = label(alert);
      // Room kept for ", … 99999 more".
      if (named.length > 0 && used + name.length + 2 + 16 > DIGEST_LINE_CHARS) break;
      named.push(name);
      used += name.length + 2;
      budget--;
    }
    const rest = alerts.length - named.length;
    lines.push(lead + [...named, ...(rest > 0 ? [`… ${rest} more`] : [])].join(', '));
    lineCounts.push(alerts.length);
  }
  return {
    tone: bad ? 'bad' : good ? 'good' : 'info',
    title,
    lines,
    counts: lineCounts,
    unnamed: entries.length - (maxNames - budget),
    link: monitorsLink(publicUrl, bad ? 'failed' : undefined),
    count: entries.length,
  };
}

/** The first `k` lines of a digest's list, and how many monitors the lines left out are about. */
function firstLines(d: DigestMessage, k: number): { lines: string[]; more: number } {
  let more = 0;
  for (let i = k; i < d.counts.length; i++) more += d.counts[i];
  return { lines: d.lines.slice(0, k), more };
}

/**
 * As many of a digest's lines as `fits` a place (its whole message rendered and measured), and
 * how many monitors the rest are about ("… and N more" with the link to the full list).
 */
export function fitDigestLines(d: DigestMessage, fits: (shown: { lines: string[]; more: number }) => boolean): { lines: string[]; more: number } {
  return firstLines(d, largestFitting(d.lines.length, (k) => fits(firstLines(d, k))));
}

export interface WebhookDigest {
  schema: typeof DIGEST_SCHEMA;
  event: 'digest';
  at: string;
  title: string;
  count: number;
  counts: { failed: number; recovered: number; other: number };
  link: string;
  /** Every alert of the digest, as a single alert's JSON (its output tail cut to DIGEST_OUTPUT_CHARS). */
  alerts: WebhookAlert[];
}

/** How much of each job's output a webhook digest carries (a single alert carries all that is kept). */
export const DIGEST_OUTPUT_CHARS = 1000;

/** One alert of a webhook digest: the single alert's JSON, its output tail cut to DIGEST_OUTPUT_CHARS. */
export function digestWebhookAlert({ alert, notification }: DigestEntry, publicUrl: string): WebhookAlert {
  const single = webhookAlert(alert, notification, subjectLink(notification.data, publicUrl));
  const tail = single.run?.output_tail;
  if (!single.run || !tail || tail.length <= DIGEST_OUTPUT_CHARS) return single;
  return { ...single, run: { ...single.run, output_tail: tail.slice(-DIGEST_OUTPUT_CHARS), output_truncated: true } };
}

/**
 * The digest of `entries` as a webhook's JSON: every alert as data; `at` is when the burst began
 * (the same on every retry). `alerts`: the entries' digestWebhookAlert, when made already.
 */
export function webhookDigest(
  entries: DigestEntry[],
  publicUrl: string,
  at: number,
  alerts: WebhookAlert[] = entries.map((entry) => digestWebhookAlert(entry, publicUrl)),
): WebhookDigest {
  const message = digestMessage(entries, publicUrl, 0);
  const tones = entries.map((e) => alertTone(e.alert));
  const failed = tones.filter((t) => t === 'bad' || t === 'warn').length;
  const recovered = tones.filter((t) => t === 'good').length;
  return {
    schema: DIGEST_SCHEMA,
    event: 'digest',
    at: toApiTimestamp(at),
    title: message.title,
    count: entries.length,
    counts: { failed, recovered, other: entries.length - failed - recovered },
    link: message.link,
    alerts,
  };
}

/**
 * webhookDigest as the JSON text a webhook is sent, its alerts' JSON (digestWebhookAlert, each
 * JSON.stringify'd) made beforehand, a page at a time: the same bytes as JSON.stringify of the whole,
 * which over 10,000 alerts held the event loop for tens of milliseconds in one go.
 */
export function webhookDigestJson(entries: DigestEntry[], publicUrl: string, at: number, alertsJson: string[]): string {
  const head = JSON.stringify(webhookDigest(entries, publicUrl, at, []));
  // `alerts` is the last field: its empty list, then the object's end.
  return `${head.slice(0, -'[]}'.length)}[${alertsJson.join(',')}]}`;
}
