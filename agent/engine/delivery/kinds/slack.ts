import { OUTPUT_BOUNDS } from '../../../domain/alertMessage';
import { DIGEST_NAMES } from '../../../domain/digestMessage';
import type { AlertTone } from '../../../domain/alertWords';
import { JSON_HEADERS, unfence, type ChannelKindModule } from './kind';

const MARK: Record<AlertTone, string> = { bad: ':red_circle:', warn: ':large_orange_circle:', good: ':large_green_circle:', info: ':large_blue_circle:' };
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const post = (url: string, text: string, blocks: unknown[]) => ({ transport: 'http' as const, url, headers: JSON_HEADERS, body: JSON.stringify({ text, blocks }) });

/** An incoming-webhook message: a fallback text, a linked title with what happened, the output, then the facts. */
export const slack: ChannelKindModule<'slack'> = {
  alert(settings, input) {
    const m = input.message(OUTPUT_BOUNDS.chat);
    const blocks: unknown[] = [{ type: 'section', text: { type: 'mrkdwn', text: `${MARK[m.tone]} *<${m.link}|${escape(m.title)}>*\n${escape(m.what)}` } }];
    if (m.output.length) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: '```' + escape(unfence(m.output)) + '```' } });
    blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: escape(['Cronbeat', ...m.facts].join(' · ')) }] });
    return post(settings.webhook_url, `${m.title}: ${m.what}`, blocks);
  },
  digest(settings, input) {
    const d = input.message(DIGEST_NAMES.chat);
    const blocks = [
      { type: 'section', text: { type: 'mrkdwn', text: `${MARK[d.tone]} *<${d.link}|${escape(d.title)}>*\n${d.lines.map(escape).join('\n')}` } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: 'Cronbeat digest: many alerts at once' }] },
    ];
    return post(settings.webhook_url, d.title, blocks);
  },
};
