import { z } from 'zod';
import { httpUrl } from '../../fields';
import { describeKind, maskSecrets, reportSettings, noControlCharacters, noCredentials, shown } from './kind';

/** A Discord channel's webhook: its URL is the secret (it is all it takes to post). */
export const discord = describeKind({
  label: 'Discord',
  settings: z.object({ webhook_url: httpUrl('webhook_url').superRefine(noControlCharacters('webhook_url')).refine(...noCredentials('webhook_url')), mask_secrets: maskSecrets, ...reportSettings }),
  secrets: ['webhook_url'],
  destination: [],
  form: [{ setting: 'webhook_url', label: 'Webhook URL', placeholder: 'https://discord.com/api/webhooks/…' }],
  where: (s) => shown(s.webhook_url),
});
