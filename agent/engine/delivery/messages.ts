import { createHmac } from 'node:crypto';
import type { ChannelRow } from '../../db/channels';
import type { NotificationResource } from '../../contract/notifications';
import { DEFAULT_NTFY_SERVER, DEFAULT_TELEGRAM_API, routingEvent, type ChannelKind } from '../../domain/channels';
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
}

/** The header a webhook's body is signed in: "sha256=" and the HMAC-SHA256 of the body, hex. */
export const SIGNATURE_HEADER = 'X-Cronbeat-Signature';

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The dashboard page of what the notification is about (the dashboard routes by the URL's fragment). */
export function subjectUrl(notification: NotificationResource, dashboardUrl: string): string {
  const base = `${dashboardUrl.replace(/\/+$/, '')}/#`;
  const { type, type_id: id } = notification.data;
  if (type === 'monitor' && id > 0) return `${base}/monitors/${id}`;
  if (type === 'server' && id > 0) return `${base}/servers/${id}`;
  if (type === 'ssl_certificate') return `${base}/certificates`;
  return `${base}/`;
}

type Tone = 'bad' | 'good' | 'info';

function toneOf(notification: NotificationResource): Tone {
  const event = routingEvent(notification.data);
  return event === 'failure' ? 'bad' : event === 'recovery' ? 'good' : 'info';
}

const json = { 'Content-Type': 'application/json', 'User-Agent': 'Cronbeat' };

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const escapeSlack = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The request that delivers `notification` through `channel`. */
export function buildRequest(channel: Pick<ChannelRow, 'kind' | 'settings'>, notification: NotificationResource, context: MessageContext): OutgoingRequest {
  const { title, description } = notification.data;
  const link = subjectUrl(notification, context.dashboardUrl);
  const tone = toneOf(notification);
  const kind: ChannelKind = channel.kind;
  switch (kind) {
    case 'webhook': {
      const settings = channel.settings as ChannelSettings['webhook'];
      const body = JSON.stringify(notification);
      return {
        transport: 'http',
        url: settings.url,
        headers: {
          ...json,
          [SIGNATURE_HEADER]: signBody(settings.secret ?? '', body),
          'X-Cronbeat-Delivery': context.deliveryKey,
          'X-Cronbeat-Event': notification.type,
        },
        body,
      };
    }
    case 'ntfy': {
      const settings = channel.settings as ChannelSettings['ntfy'];
      const server = settings.server_url ?? DEFAULT_NTFY_SERVER;
      return {
        transport: 'http',
        url: `${server}/`,
        headers: { ...json, ...(settings.access_token ? { Authorization: `Bearer ${settings.access_token}` } : {}) },
        body: JSON.stringify({
          topic: settings.topic,
          title,
          message: description || title,
          // ntfy's priorities: 4 is "high", 3 "default".
          priority: tone === 'bad' ? 4 : 3,
          tags: [tone === 'bad' ? 'rotating_light' : tone === 'good' ? 'white_check_mark' : 'information_source'],
          click: link,
        }),
      };
    }
    case 'slack': {
      const settings = channel.settings as ChannelSettings['slack'];
      const mark = tone === 'bad' ? ':red_circle:' : tone === 'good' ? ':large_green_circle:' : ':large_blue_circle:';
      return {
        transport: 'http',
        url: settings.webhook_url,
        headers: json,
        body: JSON.stringify({
          text: `${title}: ${description}`,
          blocks: [
            { type: 'section', text: { type: 'mrkdwn', text: `${mark} *<${link}|${escapeSlack(title)}>*\n${escapeSlack(description)}` } },
            { type: 'context', elements: [{ type: 'mrkdwn', text: `Cronbeat · ${notification.created_at}` }] },
          ],
        }),
      };
    }
    case 'discord': {
      const settings = channel.settings as ChannelSettings['discord'];
      return {
        transport: 'http',
        url: settings.webhook_url,
        headers: json,
        body: JSON.stringify({
          username: 'Cronbeat',
          embeds: [
            {
              title: title.slice(0, 256),
              description: description.slice(0, 4096),
              url: link,
              color: tone === 'bad' ? 0xd93025 : tone === 'good' ? 0x188038 : 0x1a73e8,
              timestamp: notification.created_at,
            },
          ],
        }),
      };
    }
    case 'telegram': {
      const settings = channel.settings as ChannelSettings['telegram'];
      const api = context.telegramApiUrl ?? settings.api_url ?? DEFAULT_TELEGRAM_API;
      return {
        transport: 'http',
        url: `${api.replace(/\/+$/, '')}/bot${settings.bot_token}/sendMessage`,
        headers: json,
        body: JSON.stringify({
          chat_id: settings.chat_id,
          text: `<b>${escapeHtml(title)}</b>\n${escapeHtml(description)}\n<a href="${escapeHtml(link)}">Open in Cronbeat</a>`,
          parse_mode: 'HTML',
          disable_web_page_preview: true,
        }),
      };
    }
    case 'email': {
      const settings = channel.settings as ChannelSettings['email'];
      return {
        transport: 'email',
        smtp: settings,
        mail: {
          from: settings.from,
          to: settings.to,
          subject: `[Cronbeat] ${title}`,
          text: `${description}\n\nOpen in Cronbeat: ${link}\n`,
          html: `<p><strong>${escapeHtml(title)}</strong></p><p>${escapeHtml(description)}</p><p><a href="${escapeHtml(link)}">Open in Cronbeat</a></p>`,
        },
      };
    }
  }
}
