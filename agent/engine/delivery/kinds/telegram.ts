import { DEFAULT_TELEGRAM_API } from '../../../domain/channels';
import { OUTPUT_BOUNDS } from '../../../domain/alertMessage';
import { DIGEST_NAMES } from '../../../domain/digestMessage';
import type { ChannelSettings } from '../../../contract/channels';
import { CHAT_MARK, escapeHtml, JSON_HEADERS, type ChannelKindModule, type MessageContext } from './kind';

/** sendMessage of the Bot API, as HTML (Telegram's limit: 4096 characters). */
function sendMessage(settings: ChannelSettings['telegram'], context: MessageContext, lines: string[], link: string) {
  const api = context.telegramApiUrl ?? settings.api_url ?? DEFAULT_TELEGRAM_API;
  const text = [...lines, `<a href="${escapeHtml(link)}">Open in Cronbeat</a>`].join('\n');
  return {
    transport: 'http' as const,
    url: `${api.replace(/\/+$/, '')}/bot${settings.bot_token}/sendMessage`,
    headers: JSON_HEADERS,
    body: JSON.stringify({ chat_id: settings.chat_id, text, parse_mode: 'HTML', disable_web_page_preview: true }),
  };
}

export const telegram: ChannelKindModule<'telegram'> = {
  alert(settings, input, context) {
    const m = input.message(OUTPUT_BOUNDS.chat);
    const lines = [`${CHAT_MARK[m.tone]} <b>${escapeHtml(m.title)}</b>`, escapeHtml(m.what), ...m.facts.map(escapeHtml)];
    if (m.output.length) lines.push(`<pre>${escapeHtml(m.output.join('\n'))}</pre>`);
    return sendMessage(settings, context, lines, m.link);
  },
  digest(settings, input, context) {
    const d = input.message(DIGEST_NAMES.chat);
    return sendMessage(settings, context, [`${CHAT_MARK[d.tone]} <b>${escapeHtml(d.title)}</b>`, ...d.lines.map(escapeHtml)], d.link);
  },
};
