import { fitOutput, OUTPUT_BOUNDS } from '../../../../domain/alerts/messageLimits';
import { DIGEST_NAMES, fitDigestLines } from '../../../../domain/alerts/digestMessage';
import { cutText, escapeDiscord as escape, fitRendered, unfence } from '../../../../domain/text/chatText';
import type { AlertTone } from '../../../../domain/alerts/words';
import { andMore, JSON_HEADERS, type ChannelKindModule } from '../kind';
import { permanent } from './errors';

const COLOR: Record<AlertTone, number> = { bad: 0xd93025, warn: 0xf29900, good: 0x188038, info: 0x1a73e8 };
/** What Discord refuses past (its documented limits). */
const LIMIT = { content: 2000, title: 256, description: 4096, footer: 2048, embedTotal: 6000, embeds: 10 } as const;

// No mention of anyone or any role, whatever a name says (@everyone included).
const post = (url: string, embed: Record<string, unknown>) => ({
  transport: 'http' as const,
  url,
  headers: JSON_HEADERS,
  body: JSON.stringify({ username: 'Cronbeat', allowed_mentions: { parse: [] }, embeds: [embed] }),
});

/** A code block whose text cannot end it (markdown is not read inside). */
const codeBlock = (lines: string[]) => (lines.length ? '\n```\n' + unfence(lines.join('\n')) + '\n```' : '');

/**
 * A webhook message with one embed: title and description in Discord's markdown, escaped; the
 * footer, which Discord shows as plain text, as it is. Within Discord's limits: title 256,
 * description 4,096, footer 2,048, 6,000 for the embed's text in all.
 */
export const discord: ChannelKindModule<'discord'> = {
  alert(settings, input) {
    const m = input.message(OUTPUT_BOUNDS.chat);
    const title = fitRendered(m.title, escape, LIMIT.title);
    const what = fitRendered(m.what, escape, LIMIT.description / 2);
    const footer = cutText(m.facts.join(' · '), LIMIT.footer);
    const room = Math.min(LIMIT.description, LIMIT.embedTotal - title.length - footer.length);
    const shown = fitOutput(m, (fitted) => what.length + codeBlock(fitted.output).length <= room);
    return post(settings.webhook_url, {
      title,
      description: `${what}${codeBlock(shown.output)}`,
      url: m.link,
      color: COLOR[m.tone],
      ...(footer ? { footer: { text: footer } } : {}),
    });
  },
  digest(settings, input) {
    const d = input.message(DIGEST_NAMES.chat);
    const title = fitRendered(d.title, escape, LIMIT.title);
    const render = (shown: { lines: string[]; more: number }) =>
      [...shown.lines.map(escape), ...(shown.more ? [`${andMore(shown.more)}: ${d.link}`] : [])].join('\n');
    const room = Math.min(LIMIT.description, LIMIT.embedTotal - title.length);
    const description = render(fitDigestLines(d, (shown) => render(shown).length <= room));
    return post(settings.webhook_url, { title, description, url: d.link, color: COLOR[d.tone] });
  },
  permanent,
};
