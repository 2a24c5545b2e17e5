import { createHmac } from 'node:crypto';
import type { Alert } from '../../../domain/alerts/alert';
import type { AlertMessage, OutputBound } from '../../../domain/alerts/messageLimits';
import type { WebhookAlert } from '../../../domain/alerts/payload';
import type { DigestMessage } from '../../../domain/alerts/digestMessage';
import type { AlertTone } from '../../../domain/alerts/words';
import type { ChannelKind, ChannelSettings } from '../../../contract/channels';
import type { ReportMessage } from '../../../domain/reports/message';
import type { WebhookReport } from '../../../domain/reports/payload';

/*
 * What every channel kind's folder provides: the request for one alert, the request for a
 * digest of many and the request for a report, built from the structured alert (agent/domain/alerts/alert.ts) and never from another
 * channel's text; and which of the service's refusals are permanent. Pure: transport.ts sends what
 * these build (an email through email/send.ts). What the kind is (its settings, secrets, label)
 * is said once in agent/contract/channels/kinds/; a new kind is one folder here and one line in
 * index.ts.
 */

export interface HttpRequestSpec {
  transport: 'http';
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface EmailSpec {
  transport: 'email';
  smtp: ChannelSettings['email'];
  mail: { from: string; to: string; subject: string; text: string; html: string };
  /** The addresses still owed this mail (those a server deferred); absent: every address of `to`. */
  recipients?: string[];
}

export type OutgoingRequest = HttpRequestSpec | EmailSpec;

export interface MessageContext {
  /** The dashboard's address as the admin opens it (the public URL, else where the agent listens). */
  dashboardUrl: string;
  /** The delivery's id, sent to webhooks so a receiver can drop a repeat (X-Cronbeat-Delivery). */
  deliveryKey: string;
  /** The admin's zone, besides the monitor's, for times in alerts; default UTC. */
  adminZone?: string;
  /** The channel's name (an email says why this address got it). */
  channelName: string;
  /** The recipients an email delivery is still owed (its server deferred them); absent: all of them. */
  recipients?: string[];
}

/** One alert, ready to lay out for the kind's place. */
export interface AlertInput {
  alert: Alert;
  message(bound: OutputBound): AlertMessage;
  webhook(): WebhookAlert;
}

/** A digest of many alerts, ready to lay out. */
export interface DigestInput {
  message(maxNames: number): DigestMessage;
  /** The webhook digest's JSON (webhookDigestJson), its alerts' JSON made beforehand in slices when the kind sends them as data. */
  webhookJson(): string;
}

/** A channel's daily, weekly or monthly report (agent/domain/reports/), ready to lay out. */
export interface ReportInput {
  message(): ReportMessage;
  webhook(): WebhookReport;
}

/** What a receiver answered to an attempt that failed, as stored (secrets redacted). */
export interface Refusal {
  /** The HTTP status; null when there was no answer, or for mail. */
  status: number | null;
  body: string | null;
  /** A mail server's refusal: its reply code (535, 550…), the command it answered, its words. */
  smtp: SmtpRefusal | null;
}

export interface SmtpRefusal {
  code: number;
  command: string;
  response: string;
}

export interface ChannelKindModule<K extends ChannelKind> {
  alert(settings: ChannelSettings[K], input: AlertInput, context: MessageContext): OutgoingRequest;
  digest(settings: ChannelSettings[K], input: DigestInput, context: MessageContext): OutgoingRequest;
  report(settings: ChannelSettings[K], input: ReportInput, context: MessageContext): OutgoingRequest;
  /** Its digest carries every alert as data (DigestInput.webhook): they are rendered beforehand, in slices. */
  digestAsData?: true;
  /**
   * What the service said, in words, when its refusal means the channel will not work until its
   * settings change (a revoked token, a deleted webhook): the delivery is then not retried. Null
   * for anything worth retrying (5xx, 429, timeouts, the network).
   */
  permanent(refusal: Refusal): string | null;
  /**
   * The settings the service says to send with instead (a Telegram group that became a supergroup
   * has a new chat id), and in words what moved; null when it says nothing of the kind.
   */
  moved?(settings: ChannelSettings[K], refusal: Refusal): { settings: ChannelSettings[K]; words: string } | null;
  /** How long the service asked to be left alone in its answer's body (seconds), when it says so there rather than in Retry-After. */
  retryAfter?(refusal: Refusal): string | null;
}

/** `body` read as JSON, or null when it is not an object. */
export function jsonOf(body: string | null): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body ?? '');
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A text field of a JSON answer, or null. */
export function textOf(body: string | null, field: string): string | null {
  const value = jsonOf(body)?.[field];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The header a webhook's body is signed in: "sha256=" and the HMAC-SHA256 of the body, hex. */
export const SIGNATURE_HEADER = 'X-Cronbeat-Signature';

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export const JSON_HEADERS = { 'Content-Type': 'application/json', 'User-Agent': 'Cronbeat' };

export { escapeHtml } from '../../../domain/text/chatText';

/** A round mark for chat, by tone. */
export const CHAT_MARK: Record<AlertTone, string> = { bad: '🔴', warn: '🟠', good: '🟢', info: '🔵' };

export { fitReportItems, moreMonitors, reportBody, reportText } from '../../../domain/reports/message';

/** "… and 12 more", where a digest's list stops for room. */
export const andMore = (more: number) => `… and ${more} more`;

/** A digest as plain lines: the title, the lines shown, how many more, the link to the full list. */
export function digestText(d: DigestMessage, shown: { lines: string[]; more: number }, options: { title?: boolean } = {}): string {
  return [options.title === false ? '' : d.title, ...shown.lines, shown.more ? andMore(shown.more) : '', `Open: ${d.link}`].filter(Boolean).join('\n');
}
