import { DEFAULT_NTFY_SERVER } from '../../../domain/channels';
import { OUTPUT_BOUNDS, plainText } from '../../../domain/alertMessage';
import { DIGEST_NAMES } from '../../../domain/digestMessage';
import type { AlertTone } from '../../../domain/alertWords';
import type { ChannelSettings } from '../../../contract/channels';
import { digestText, JSON_HEADERS, type ChannelKindModule } from './kind';

const TAG: Record<AlertTone, string> = { bad: 'rotating_light', warn: 'warning', good: 'white_check_mark', info: 'information_source' };

/** ntfy's JSON publish: 4 is "high" priority, 3 "default". */
function publish(settings: ChannelSettings['ntfy'], message: { title: string; message: string; tone: AlertTone; click: string }) {
  return {
    transport: 'http' as const,
    url: `${settings.server_url ?? DEFAULT_NTFY_SERVER}/`,
    headers: { ...JSON_HEADERS, ...(settings.access_token ? { Authorization: `Bearer ${settings.access_token}` } : {}) },
    body: JSON.stringify({
      topic: settings.topic,
      title: message.title,
      message: message.message,
      priority: message.tone === 'bad' || message.tone === 'warn' ? 4 : 3,
      tags: [TAG[message.tone]],
      click: message.click,
    }),
  };
}

export const ntfy: ChannelKindModule<'ntfy'> = {
  alert(settings, input) {
    const m = input.message(OUTPUT_BOUNDS.chat);
    return publish(settings, { title: m.title, message: plainText(m, { title: false }), tone: m.tone, click: m.link });
  },
  digest(settings, input) {
    const d = input.message(DIGEST_NAMES.chat);
    return publish(settings, { title: d.title, message: digestText(d, { title: false }), tone: d.tone, click: d.link });
  },
};
