import { fitOutput, OUTPUT_BOUNDS, plainText } from '../../../../domain/alerts/messageLimits';
import { DIGEST_NAMES, fitDigestLines } from '../../../../domain/alerts/digestMessage';
import { cutText, fitRendered, oneLine, utf8Bytes } from '../../../../domain/text/chatText';
import type { AlertTone } from '../../../../domain/alerts/words';
import { DEFAULT_NTFY_SERVER, type ChannelSettings } from '../../../../contract/channels';
import { digestText, JSON_HEADERS, type ChannelKindModule } from '../kind';
import { permanent } from './errors';

const TAG: Record<AlertTone, string> = { bad: 'rotating_light', warn: 'warning', good: 'white_check_mark', info: 'information_source' };
/** Bytes of a message, past which ntfy makes it an attachment; a title's characters. */
const LIMIT = { messageBytes: 4096, title: 250 } as const;
const fitsMessage = (text: string) => utf8Bytes(text) <= LIMIT.messageBytes;

/**
 * ntfy's JSON publish (so no header carries a title): 4 is "high" priority, 3 "default". Plain
 * text, never markdown; the title on one line; the message within 4,096 bytes, past which ntfy
 * would make it an attachment.
 */
function publish(settings: ChannelSettings['ntfy'], message: { title: string; message: string; tone: AlertTone; click: string }) {
  return {
    transport: 'http' as const,
    url: `${settings.server_url ?? DEFAULT_NTFY_SERVER}/`,
    headers: { ...JSON_HEADERS, ...(settings.access_token ? { Authorization: `Bearer ${settings.access_token}` } : {}) },
    body: JSON.stringify({
      topic: settings.topic,
      title: cutText(oneLine(message.title), LIMIT.title),
      message: fitRendered(message.message, (text) => text, LIMIT.messageBytes, utf8Bytes),
      priority: message.tone === 'bad' || message.tone === 'warn' ? 4 : 3,
      tags: [TAG[message.tone]],
      click: message.click,
    }),
  };
}

export const ntfy: ChannelKindModule<'ntfy'> = {
  alert(settings, input) {
    const m = input.message(OUTPUT_BOUNDS.chat);
    const shown = fitOutput(m, (fitted) => fitsMessage(plainText(fitted, { title: false })));
    return publish(settings, { title: m.title, message: plainText(shown, { title: false }), tone: m.tone, click: m.link });
  },
  digest(settings, input) {
    const d = input.message(DIGEST_NAMES.chat);
    const shown = fitDigestLines(d, (s) => fitsMessage(digestText(d, s, { title: false })));
    return publish(settings, { title: d.title, message: digestText(d, shown, { title: false }), tone: d.tone, click: d.link });
  },
  permanent,
};
