import { createHmac } from 'node:crypto';
import type { ChannelKind } from '../../../domain/channels/kinds';
import type { Alert } from '../../../domain/alerts/alert';
import type { AlertMessage, OutputBound } from '../../../domain/alerts/messageLimits';
import type { WebhookAlert } from '../../../domain/alerts/payload';
import type { DigestMessage, WebhookDigest } from '../../../domain/alerts/digestMessage';
import type { AlertTone } from '../../../domain/alerts/words';
import type { ChannelSettings } from '../../../contract/channels';

/*
 * What every channel kind's module provides (issue 22 item 3): the request for one alert and the
 * request for a digest of many, built from the structured alert (agent/domain/alerts/alert.ts) and never
 * from another channel's text. Pure: transport.ts sends what these build. A new kind is one file
 * here and one line in index.ts.
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
}

export type OutgoingRequest = HttpRequestSpec | EmailSpec;

export interface MessageContext {
  /** The dashboard's address as the admin opens it (the public URL, else where the agent listens). */
  dashboardUrl: string;
  /** Overrides every Telegram channel's API address (tests, or a Bot API server of one's own). */
  telegramApiUrl?: string;
  /** The delivery's id, sent to webhooks so a receiver can drop a repeat (X-Cronbeat-Delivery). */
  deliveryKey: string;
  /** The admin's zone, besides the monitor's, for times in alerts; default UTC. */
  adminZone?: string;
  /** The channel's name (an email says why this address got it). */
  channelName: string;
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
  webhook(): WebhookDigest;
}

export interface ChannelKindModule<K extends ChannelKind> {
  alert(settings: ChannelSettings[K], input: AlertInput, context: MessageContext): OutgoingRequest;
  digest(settings: ChannelSettings[K], input: DigestInput, context: MessageContext): OutgoingRequest;
  /** Its digest carries every alert as data (DigestInput.webhook): they are rendered beforehand, in slices. */
  digestAsData?: true;
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

/** "… and 12 more", where a digest's list stops for room. */
export const andMore = (more: number) => `… and ${more} more`;

/** A digest as plain lines: the title, the lines shown, how many more, the link to the full list. */
export function digestText(d: DigestMessage, shown: { lines: string[]; more: number }, options: { title?: boolean } = {}): string {
  return [options.title === false ? '' : d.title, ...shown.lines, shown.more ? andMore(shown.more) : '', `Open: ${d.link}`].filter(Boolean).join('\n');
}
