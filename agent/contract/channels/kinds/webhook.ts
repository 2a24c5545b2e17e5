import { z } from 'zod';
import { httpUrl, optionalString } from '../../fields';
import { describeKind, maskSecrets, noControlCharacters, reportSettings, shown } from './kind';

/** A URL of the admin's, sent each alert as signed JSON; its user:pass@ goes as Basic auth. */
export const webhook = describeKind({
  label: 'Webhook',
  settings: z.object({
    url: httpUrl('url').superRefine(noControlCharacters('url')),
    // Absent on create: the agent makes one and shows it once (routes/channels.ts).
    secret: optionalString('secret', 256)
      .superRefine(noControlCharacters('secret'))
      .refine((v) => v === undefined || v.length >= 16, { message: 'The secret field must be at least 16 characters.' }),
    mask_secrets: maskSecrets, ...reportSettings,
  }),
  secrets: ['secret'],
  destination: ['url'],
  urlWithCredentials: 'url',
  form: [
    { setting: 'url', label: 'URL', placeholder: 'https://example.com/cronbeat-hook' },
    {
      setting: 'secret',
      label: 'Signing secret',
      hint: 'Leave empty and Cronbeat makes one (shown once). Each body is signed with it in X-Cronbeat-Signature.',
    },
  ],
  where: (s) => shown(s.url),
});
