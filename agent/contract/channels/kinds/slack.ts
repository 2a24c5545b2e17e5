import { z } from 'zod';
import { httpUrl } from '../../fields';
import { describeKind, maskSecrets, reportSettings, noControlCharacters, noCredentials, shown } from './kind';

/** A Slack incoming webhook: its URL is the secret (it is all it takes to post). */
export const slack = describeKind({
  label: 'Slack',
  settings: z.object({ webhook_url: httpUrl('webhook_url').superRefine(noControlCharacters('webhook_url')).refine(...noCredentials('webhook_url')), mask_secrets: maskSecrets, ...reportSettings }),
  secrets: ['webhook_url'],
  destination: [],
  form: [{ setting: 'webhook_url', label: 'Incoming webhook URL', placeholder: 'https://hooks.slack.com/services/…' }],
  where: (s) => shown(s.webhook_url),
});
