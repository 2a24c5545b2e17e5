import { createHmac } from 'node:crypto';
import type { ChannelRow } from '../../db/channels';
import type { NotificationResource } from '../../contract/notifications';
import { DEFAULT_NTFY_SERVER, DEFAULT_TELEGRAM_API, type ChannelKind } from '../../domain/channels';
import type { Alert } from '../../domain/alert';
import { alertMessage, alertOf, OUTPUT_BOUNDS, plainText, subjectLink, type AlertMessage, type OutputBound } from '../../domain/alertMessage';
import { webhookAlert } from '../../domain/alertPayload';
import { subjectName } from '../../domain/alertWords';
import type { ChannelSettings } from '../../contract/channels';

/*
 * What each kind of channel sends for a notification (issue 14; the messages are shown in
 * docs/channels.md). Pure: the request is built here and sent by transport.ts.
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
  /** The dashboard's address as the admin opens it (links in messages). */
  dashboardUrl: string;
  /** Overrides every Telegram channel's API address (tests, or a Bot API server of one's own). */
  telegramApiUrl?: string;
  /** The delivery's id, sent to webhooks so a receiver can drop a repeat (X-Cronbeat-Delivery). */
  deliveryKey: string;
  /** The admin's zone, besides the monitor's, for times in alerts; default UTC. */
  adminZone?: string;
}

/** The header a webhook's body is signed in: "sha256=" and the HMAC-SHA256 of the body, hex. */
export const SIGNATURE_HEADER = 'X-Cronbeat-Signature';

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

type Tone = AlertMessage['tone'];

const json = { 'Content-Type': 'application/json', 'User-Agent': 'Cronbeat' };

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const escapeSlack = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** A code block's text with its fence made harmless (chat code blocks end at three backticks). */
const unfence = (lines: string[]) => lines.join('\n').replace(/```/g, "'''");

const SLACK_MARK: Record<Tone, string> = { bad: ':red_circle:', warn: ':large_orange_circle:', good: ':large_green_circle:', info: ':large_blue_circle:' };
const DISCORD_COLOR: Record<Tone, number> = { bad: 0xd93025, warn: 0xf29900, good: 0x188038, info: 0x1a73e8 };
const NTFY_TAG: Record<Tone, string> = { bad: 'rotating_light', warn: 'warning', good: 'white_check_mark', info: 'information_source' };
const CHAT_MARK: Record<Tone, string> = { bad: '🔴', warn: '🟠', good: '🟢', info: '🔵' };

/** The email subject, state first so an inbox sorts at a glance: "FAILED | nightly-backup on web-1 (exit 3)". */
export function emailSubject(alert: Alert, message: AlertMessage): string {
  if (alert.reason.kind === 'other') return `${message.state} | ${message.title}`;
  const code = alert.reason.kind === 'failed' && alert.reason.exit_code !== null ? ` (exit ${alert.reason.exit_code})` : '';
  return `${message.state} | ${subjectName(alert)}${code}`;
}

/** The request that delivers `notification` (its alert as data, when it has one) through `channel`. */
export function buildRequest(
  channel: Pick<ChannelRow, 'kind' | 'settings' | 'name'>,
  notification: NotificationResource,
  context: MessageContext,
  storedAlert: Alert | null = null,
): OutgoingRequest {
  const alert = storedAlert ?? alertOf(notification.data, notification.created_at);
  const words = { publicUrl: context.dashboardUrl, adminZone: context.adminZone ?? 'UTC' };
  const message = (bound: OutputBound) => alertMessage(alert, notification.data, words, bound);
  const kind: ChannelKind = channel.kind;
  switch (kind) {
    case 'webhook': {
      const settings = channel.settings as ChannelSettings['webhook'];
      const body = JSON.stringify(webhookAlert(alert, notification, subjectLink(notification.data, context.dashboardUrl)));
      return {
        transport: 'http',
        url: settings.url,
        headers: {
          ...json,
          [SIGNATURE_HEADER]: signBody(settings.secret ?? '', body),
          'X-Cronbeat-Delivery': context.deliveryKey,
          'X-Cronbeat-Event': alert.event,
        },
        body,
      };
    }
    case 'ntfy': {
      const settings = channel.settings as ChannelSettings['ntfy'];
      const server = settings.server_url ?? DEFAULT_NTFY_SERVER;
      const m = message(OUTPUT_BOUNDS.chat);
      return {
        transport: 'http',
        url: `${server}/`,
        headers: { ...json, ...(settings.access_token ? { Authorization: `Bearer ${settings.access_token}` } : {}) },
        body: JSON.stringify({
          topic: settings.topic,
          title: m.title,
          message: plainText(m, { title: false }),
          // ntfy's priorities: 4 is "high", 3 "default".
          priority: m.tone === 'bad' || m.tone === 'warn' ? 4 : 3,
          tags: [NTFY_TAG[m.tone]],
          click: m.link,
        }),
      };
    }
    case 'slack': {
      const settings = channel.settings as ChannelSettings['slack'];
      const m = message(OUTPUT_BOUNDS.chat);
      const blocks: unknown[] = [
        { type: 'section', text: { type: 'mrkdwn', text: `${SLACK_MARK[m.tone]} *<${m.link}|${escapeSlack(m.title)}>*\n${escapeSlack(m.what)}` } },
      ];
      if (m.output.length) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: '```' + escapeSlack(unfence(m.output)) + '```' } });
      blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: escapeSlack(['Cronbeat', ...m.facts].join(' · ')) }] });
      return { transport: 'http', url: settings.webhook_url, headers: json, body: JSON.stringify({ text: `${m.title}: ${m.what}`, blocks }) };
    }
    case 'discord': {
      const settings = channel.settings as ChannelSettings['discord'];
      const m = message(OUTPUT_BOUNDS.chat);
      const output = m.output.length ? '\n```\n' + unfence(m.output) + '\n```' : '';
      return {
        transport: 'http',
        url: settings.webhook_url,
        headers: json,
        body: JSON.stringify({
          username: 'Cronbeat',
          embeds: [
            {
              title: m.title.slice(0, 256),
              description: `${m.what}${output}`.slice(0, 4096),
              url: m.link,
              color: DISCORD_COLOR[m.tone],
              ...(m.facts.length ? { footer: { text: m.facts.join(' · ').slice(0, 2048) } } : {}),
            },
          ],
        }),
      };
    }
    case 'telegram': {
      const settings = channel.settings as ChannelSettings['telegram'];
      const api = context.telegramApiUrl ?? settings.api_url ?? DEFAULT_TELEGRAM_API;
      const m = message(OUTPUT_BOUNDS.chat);
      const lines = [`${CHAT_MARK[m.tone]} <b>${escapeHtml(m.title)}</b>`, escapeHtml(m.what), ...m.facts.map(escapeHtml)];
      if (m.output.length) lines.push(`<pre>${escapeHtml(m.output.join('\n'))}</pre>`);
      lines.push(`<a href="${escapeHtml(m.link)}">Open in Cronbeat</a>`);
      return {
        transport: 'http',
        url: `${api.replace(/\/+$/, '')}/bot${settings.bot_token}/sendMessage`,
        headers: json,
        body: JSON.stringify({ chat_id: settings.chat_id, text: lines.join('\n'), parse_mode: 'HTML', disable_web_page_preview: true }),
      };
    }
    case 'email': {
      const settings = channel.settings as ChannelSettings['email'];
      const m = message(OUTPUT_BOUNDS.email);
      return { transport: 'email', smtp: settings, mail: { from: settings.from, to: settings.to, ...emailBody(alert, m, channel.name) } };
    }
  }
}

/** An alert's email: the state-first subject, a plain text part and the same as HTML with the output in a monospace block. */
export function emailBody(alert: Alert, m: AlertMessage, channelName: string): { subject: string; text: string; html: string } {
  const why = `You get this because this address is the Cronbeat channel "${channelName}". To pause the monitor, open it and choose Pause.`;
  const html = [
    `<p><strong>${escapeHtml(m.title)}</strong></p>`,
    `<p>${escapeHtml(m.what)}</p>`,
    m.facts.length ? `<ul>${m.facts.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>` : '',
    m.output.length
      ? `<p>${m.outputCut ? 'Last output (end):' : 'Output:'}</p><pre style="font-family:monospace;background:#f6f8fa;padding:8px">${escapeHtml(m.output.join('\n'))}</pre>`
      : '',
    `<p><a href="${escapeHtml(m.link)}">Open in Cronbeat</a></p>`,
    `<p style="color:#666;font-size:small">${escapeHtml(why)}</p>`,
  ];
  return { subject: emailSubject(alert, m), text: `${plainText(m)}\n\n-- \n${why}\n`, html: html.filter(Boolean).join('\n') };
}

