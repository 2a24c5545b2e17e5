import { z } from 'zod';
import { optionalString, requiredString } from '../../fields';
import { describeKind, maskSecrets, reportSettings, optionalBaseUrl, shown } from './kind';

export const DEFAULT_NTFY_SERVER = 'https://ntfy.sh';

/** A topic on an ntfy server (the public ntfy.sh unless another is set), with a token for a protected one. */
export const ntfy = describeKind({
  label: 'ntfy',
  settings: z.object({
    server_url: optionalBaseUrl('server_url'),
    topic: requiredString('topic', 64).regex(/^[A-Za-z0-9_-]+$/, 'The topic field may only contain letters, digits, dashes and underscores.'),
    // Sent as a header (Bearer): a space, a line break or a letter outside ASCII would fail every send, not this request.
    access_token: optionalString('access_token', 512).refine((v) => v === undefined || /^[\x21-\x7e]+$/.test(v), {
      message: 'The access token field must be a token as ntfy gives it (such as "tk_…"): letters, digits and symbols, no spaces.',
    }),
    mask_secrets: maskSecrets, ...reportSettings,
  }),
  secrets: ['access_token'],
  destination: ['server_url'],
  hiddenFromReaders: ['topic'],
  form: [
    { setting: 'server_url', label: 'Server', placeholder: DEFAULT_NTFY_SERVER, hint: 'Empty: the public ntfy.sh.' },
    { setting: 'topic', label: 'Topic', placeholder: 'my-cron-alerts-5f2c', hint: 'On ntfy.sh anyone who knows a topic can read it: pick one hard to guess.' },
    { setting: 'access_token', label: 'Access token', hint: 'Only for a protected topic.' },
  ],
  where: (s) => `${shown(s.server_url) || DEFAULT_NTFY_SERVER}/${shown(s.topic)}`,
});
