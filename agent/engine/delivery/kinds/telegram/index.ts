import { fitOutput, OUTPUT_BOUNDS } from '../../../../domain/alerts/messageLimits';
import { DIGEST_NAMES, fitDigestLines } from '../../../../domain/alerts/digestMessage';
import { escapeHtml, fitRendered, telegramLength } from '../../../../domain/text/chatText';
import { DEFAULT_TELEGRAM_API, type ChannelSettings } from '../../../../contract/channels';
import { andMore, CHAT_MARK, fitReportItems, JSON_HEADERS, moreMonitors, reportBody, type ChannelKindModule } from '../kind';
import { movedTo, permanent, retryAfter } from './errors';

/** What Telegram refuses past: UTF-16 code units of the text after HTML parsing. */
const LIMIT = 4096;

const withLink = (lines: string[], link: string) => [...lines, `<a href="${escapeHtml(link)}">Open in Cronbeat</a>`].join('\n');

/** sendMessage of the Bot API, as HTML: every text escaped (& < > "), within Telegram's 4,096 characters as it counts them. */
function sendMessage(settings: ChannelSettings['telegram'], text: string) {
  const api = settings.api_url ?? DEFAULT_TELEGRAM_API;
  return {
    transport: 'http' as const,
    url: `${api.replace(/\/+$/, '')}/bot${settings.bot_token}/sendMessage`,
    headers: JSON_HEADERS,
    body: JSON.stringify({ chat_id: settings.chat_id, text, parse_mode: 'HTML', disable_web_page_preview: true }),
  };
}

export const telegram: ChannelKindModule<'telegram'> = {
  alert(settings, input) {
    const m = input.message(OUTPUT_BOUNDS.chat);
    const head = [`${CHAT_MARK[m.tone]} <b>${escapeHtml(m.title)}</b>`, fitRendered(m.what, escapeHtml, LIMIT / 2, telegramLength), ...m.facts.map(escapeHtml)];
    const render = (output: string[]) => withLink(output.length ? [...head, `<pre>${escapeHtml(output.join('\n'))}</pre>`] : head, m.link);
    const shown = fitOutput(m, (fitted) => telegramLength(render(fitted.output)) <= LIMIT);
    return sendMessage(settings, render(shown.output));
  },
  digest(settings, input) {
    const d = input.message(DIGEST_NAMES.chat);
    const render = (shown: { lines: string[]; more: number }) =>
      withLink([`${CHAT_MARK[d.tone]} <b>${escapeHtml(d.title)}</b>`, ...shown.lines.map(escapeHtml), ...(shown.more ? [`${andMore(shown.more)}:`] : [])], d.link);
    return sendMessage(settings, render(fitDigestLines(d, (shown) => telegramLength(render(shown)) <= LIMIT)));
  },
  report(settings, input) {
    const m = input.message();
    const markup = { escape: escapeHtml, heading: (t: string) => `<b>${escapeHtml(t)}</b>`, more: (n: number) => `${escapeHtml(moreMonitors(n))}:` };
    const render = (k: number) =>
      withLink([`${CHAT_MARK[m.tone]} <b>${escapeHtml(m.title)}</b>`, escapeHtml(m.period), escapeHtml(m.summary), '', ...reportBody(m, k, markup)], m.link);
    return sendMessage(settings, render(fitReportItems(m, (k) => telegramLength(render(k)) <= LIMIT)));
  },
  permanent,
  retryAfter,
  moved(settings, refusal) {
    const chatId = movedTo(refusal);
    return chatId === null ? null : { settings: { ...settings, chat_id: chatId }, words: `the chat moved to chat id ${chatId} (a group that became a supergroup)` };
  },
};
