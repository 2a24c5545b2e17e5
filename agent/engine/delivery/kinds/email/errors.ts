import type { Refusal } from '../kind';

/**
 * A mail server's permanent refusal (a 5xx reply, RFC 5321) of the login or of the envelope: the
 * user or password (535), the sender or a recipient (550, 553…). A 4xx is "try again later", and
 * a refused message (DATA) is about its content, not the settings: both are retried.
 */
export function permanent({ smtp }: Refusal): string | null {
  if (!smtp || smtp.code < 500 || smtp.code > 599) return null;
  const command = smtp.command.toUpperCase();
  const what = command.startsWith('AUTH') ? 'the login' : command.startsWith('RCPT') ? 'the recipients' : command.startsWith('MAIL') ? 'the sender' : null;
  return what ? `The mail server refused ${what}: ${smtp.response || smtp.code}` : null;
}
