import { z } from 'zod';
import { controlCharacterProblem, optionalString, requiredString } from '../../fields';
import { emailAddressesOf } from '../../peopleInputs';
import { normalizeHostname } from '../../certificates';
import { describeKind, maskSecrets, noControlCharacters, reportSettings, shown } from './kind';

/** One address or a list, as nodemailer sends them (agent/contract/peopleInputs.ts). */
function emailAddresses(field: string, options: { many: boolean }) {
  // A line break or a bidi override in an address would act in the mail's headers or on its reader.
  return requiredString(field, 1000)
    .superRefine((text, context) => {
      const problem = controlCharacterProblem(field, text);
      if (problem) context.addIssue({ code: 'custom', message: problem, abort: true });
    })
    .transform(emailAddressesOf(field, options));
}

/** Mail through an SMTP server of the admin's: STARTTLS, TLS from the first byte, or none. */
export const email = describeKind({
  label: 'Email',
  settings: z.object({
    // As a certificate's hostname: a mistyped address (192.168.1) or a name DNS cannot hold is
    // refused here, not found out when alerts fail to go out. An IPv6 address stays refused, as
    // nodemailer would be handed it as written (no ":" was ever taken).
    host: requiredString('host', 255)
      .refine((h) => !/[\s/:@]/.test(h) && normalizeHostname(h) !== null, 'The host field must be a host name or an IP address.')
      .superRefine(noControlCharacters('host')),
    port: z
      .number({ error: 'The port field must be an integer.' })
      .int('The port field must be an integer.')
      .min(1, 'The port field must be between 1 and 65535.')
      .max(65_535, 'The port field must be between 1 and 65535.')
      .nullish()
      .transform((v) => v ?? undefined),
    tls: z.enum(['starttls', 'tls', 'none'], { error: 'The tls field must be one of: starttls, tls, none.' }).default('starttls'),
    user: optionalString('user', 255).superRefine(noControlCharacters('user')),
    password: optionalString('password', 512).superRefine(noControlCharacters('password')),
    from: emailAddresses('from', { many: false }),
    to: emailAddresses('to', { many: true }),
    mask_secrets: maskSecrets, ...reportSettings,
  }),
  secrets: ['password'],
  destination: ['host', 'port', 'tls', 'user'],
  form: [
    { setting: 'host', label: 'SMTP host', placeholder: 'smtp.example.com' },
    { setting: 'port', label: 'Port', placeholder: '587', hint: 'Empty: 587 for STARTTLS, 465 for TLS, 25 without.' },
    { setting: 'tls', label: 'Encryption', options: ['starttls', 'tls', 'none'], initial: 'starttls' },
    { setting: 'user', label: 'User' },
    { setting: 'password', label: 'Password' },
    { setting: 'from', label: 'From', placeholder: 'cronbeat@example.com' },
    { setting: 'to', label: 'To', placeholder: 'ops@example.com, me@example.com' },
  ],
  where: (s) => `${shown(s.to)} via ${shown(s.host)}`,
});
