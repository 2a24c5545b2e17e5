import { z } from 'zod';
import { requiredString } from '../../fields';
import { describeKind, maskSecrets, reportSettings, optionalBaseUrl, shown } from './kind';

export const DEFAULT_TELEGRAM_API = 'https://api.telegram.org';

/** A chat a Telegram bot posts to, through Telegram's Bot API or a Bot API server of one's own (api_url). */
export const telegram = describeKind({
  label: 'Telegram',
  settings: z.object({
    bot_token: requiredString('bot_token', 128).regex(
      /^\d+:[A-Za-z0-9_-]+$/,
      'The bot token field must be a token as BotFather gives it, such as "123456:ABC-DEF…".',
    ),
    chat_id: z
      .union([z.string().trim(), z.number()], { error: 'The chat id field is required.' })
      // A number is a chat id only when whole and exact (a JSON number past 2^53 has lost its digits).
      .refine((v) => typeof v === 'string' || Number.isSafeInteger(v), { message: 'The chat id field must be a numeric chat id or a @channel name.', abort: true })
      .transform(String)
      .refine((v) => /^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/.test(v), {
        message: 'The chat id field must be a numeric chat id or a @channel name.',
      }),
    api_url: optionalBaseUrl('api_url'),
    mask_secrets: maskSecrets, ...reportSettings,
  }),
  secrets: ['bot_token'],
  destination: ['api_url', 'chat_id'],
  form: [
    { setting: 'bot_token', label: 'Bot token', placeholder: '123456:ABC-DEF…', hint: 'From @BotFather.' },
    { setting: 'chat_id', label: 'Chat id', placeholder: '-1001234567890', hint: 'A numeric chat id or a @channel name.' },
    {
      setting: 'api_url',
      label: 'Bot API address',
      placeholder: DEFAULT_TELEGRAM_API,
      hint: "Empty: Telegram's own. Set it for a Bot API server of your own.",
    },
  ],
  where: (s) => `chat ${shown(s.chat_id)}`,
});
