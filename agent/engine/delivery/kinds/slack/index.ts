import { fitOutput, OUTPUT_BOUNDS } from '../../../../domain/alerts/messageLimits';
import { DIGEST_NAMES, fitDigestLines } from '../../../../domain/alerts/digestMessage';
import { escapeSlack as escape, fitRendered, unfence } from '../../../../domain/text/chatText';
import type { AlertTone } from '../../../../domain/alerts/words';
import { andMore, JSON_HEADERS, type ChannelKindModule } from '../kind';
import { permanent } from './errors';

const MARK: Record<AlertTone, string> = { bad: ':red_circle:', warn: ':large_orange_circle:', good: ':large_green_circle:', info: ':large_blue_circle:' };
/** What Slack refuses past (its documented limits). */
const LIMIT = { section: 3000, context: 3000, fallback: 4000, blocks: 50 } as const;

/** mrkdwn read literally: no bare address made a link, no @name or #channel made a mention (ours are <…>, escaped in names). */
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text, verbatim: true });
const section = (text: string) => ({ type: 'section', text: mrkdwn(text) });

const post = (url: string, text: string, blocks: unknown[]) => ({ transport: 'http' as const, url, headers: JSON_HEADERS, body: JSON.stringify({ text, blocks }) });

/** A title linked to the page: the link is ours, the label escaped (a ">" in it would end the link). */
const linkedTitle = (tone: AlertTone, link: string, title: string) => `${MARK[tone]} *<${link}|${escape(title)}>*`;

/** A code block whose text cannot end it. */
const codeBlock = (lines: string[]) => '```\n' + escape(unfence(lines.join('\n'))) + '\n```';

/**
 * An incoming-webhook message: a fallback text, a linked title with what happened, the output,
 * then the facts. Every text is escaped (& < >) and within Slack's 3,000 characters a section.
 */
export const slack: ChannelKindModule<'slack'> = {
  alert(settings, input) {
    const m = input.message(OUTPUT_BOUNDS.chat);
    const head = linkedTitle(m.tone, m.link, m.title);
    const first = `${head}\n${fitRendered(m.what, escape, LIMIT.section - head.length - 1)}`;
    const shown = fitOutput(m, (fitted) => codeBlock(fitted.output).length <= LIMIT.section);
    const blocks: unknown[] = [section(first)];
    if (shown.output.length) blocks.push(section(codeBlock(shown.output)));
    blocks.push({ type: 'context', elements: [mrkdwn(fitRendered(['Cronbeat', ...m.facts].join(' · '), escape, LIMIT.context))] });
    return post(settings.webhook_url, fitRendered(`${m.title}: ${m.what}`, escape, LIMIT.fallback), blocks);
  },
  digest(settings, input) {
    const d = input.message(DIGEST_NAMES.chat);
    const head = linkedTitle(d.tone, d.link, d.title);
    const render = (shown: { lines: string[]; more: number }) =>
      [head, ...shown.lines.map(escape), ...(shown.more ? [`${andMore(shown.more)}: <${d.link}|the full list>`] : [])].join('\n');
    const text = render(fitDigestLines(d, (shown) => render(shown).length <= LIMIT.section));
    const blocks = [section(text), { type: 'context', elements: [mrkdwn('Cronbeat digest: many alerts at once')] }];
    return post(settings.webhook_url, fitRendered(d.title, escape, LIMIT.fallback), blocks);
  },
  permanent,
};
