import { OUTPUT_BOUNDS } from '../../../domain/alertMessage';
import { DIGEST_NAMES } from '../../../domain/digestMessage';
import type { AlertTone } from '../../../domain/alertWords';
import { JSON_HEADERS, unfence, type ChannelKindModule } from './kind';

const COLOR: Record<AlertTone, number> = { bad: 0xd93025, warn: 0xf29900, good: 0x188038, info: 0x1a73e8 };

const post = (url: string, embed: Record<string, unknown>) => ({
  transport: 'http' as const,
  url,
  headers: JSON_HEADERS,
  body: JSON.stringify({ username: 'Cronbeat', embeds: [embed] }),
});

/** A webhook message with one embed (Discord's limits: title 256, description 4096, footer 2048 characters). */
export const discord: ChannelKindModule<'discord'> = {
  alert(settings, input) {
    const m = input.message(OUTPUT_BOUNDS.chat);
    const output = m.output.length ? '\n```\n' + unfence(m.output) + '\n```' : '';
    return post(settings.webhook_url, {
      title: m.title.slice(0, 256),
      description: `${m.what}${output}`.slice(0, 4096),
      url: m.link,
      color: COLOR[m.tone],
      ...(m.facts.length ? { footer: { text: m.facts.join(' · ').slice(0, 2048) } } : {}),
    });
  },
  digest(settings, input) {
    const d = input.message(DIGEST_NAMES.chat);
    return post(settings.webhook_url, { title: d.title.slice(0, 256), description: d.lines.join('\n').slice(0, 4096), url: d.link, color: COLOR[d.tone] });
  },
};
