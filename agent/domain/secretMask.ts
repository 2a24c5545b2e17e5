import type { Alert } from './alert';

/*
 * Secrets a job printed, masked in what leaves the agent for a channel (docs/security.md, "Secrets
 * in job output"): chat services, inboxes and webhooks keep messages for years and show them to
 * everyone in the room. What is stored (the database, the API, the dashboard) keeps the output as
 * it was. A channel turns this off with its setting mask_secrets: false. Pure.
 */

/** What a masked value reads as. */
export const MASKED = '***';

/** A key that names a secret: secret, token, password, passwd, pwd, key (apikey, api_key…), auth, credential. */
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]*(?:secret|token|passw(?:or)?d|pwd|key|auth|credential)[A-Za-z0-9_.-]*`;

/** `KEY=value`, `KEY: value`, `"key": "value"`, `key='v a l'`; an authorization scheme (Bearer, Basic, Token) before the value stays. */
const KEY_VALUE = new RegExp(
  String.raw`(["']?\b${SECRET_KEY}["']?[ \t]*[:=][ \t]*)(?:(Bearer|Basic|Token|Digest)[ \t]+)?(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"',;&]+))`,
  'gi',
);

const BEARER = /\b(Bearer[ \t]+)[A-Za-z0-9._~+/=-]+/gi;

/** -----BEGIN … PRIVATE KEY----- … -----END … PRIVATE KEY-----, and an unended one to the end of the text. */
const PRIVATE_KEY_BLOCK = /(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)[^]*?(?:(-----END [A-Z0-9 ]*PRIVATE KEY-----)|$)/g;
/** The end of a block whose start was cut off (the output kept begins inside it). */
const PRIVATE_KEY_END = /^[^]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----)/;

/** scheme://user:password@host: the password. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+@/gi;

/** Tokens recognisable by their shape alone, each kept to its prefix. */
const TOKEN_SHAPES: Array<[RegExp, string]> = [
  [/\b(AKIA|ASIA)[0-9A-Z]{16}\b/g, '$1'],
  [/\b(gh[pousr]_)[A-Za-z0-9]{20,}\b/g, '$1'],
  [/\b(github_pat_)[A-Za-z0-9_]{20,}/g, '$1'],
  [/\b(xox[abprs]-)[A-Za-z0-9-]{8,}/g, '$1'],
  [/\b(cb_)[A-Za-z0-9_-]{16,}/g, '$1'],
];

/** `text` with well-known shapes of secrets masked as "***" (see the rules above). */
export function maskSecrets(text: string): string {
  let masked = text;
  if (masked.includes('PRIVATE KEY-----')) {
    if (!/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(masked.split(/-----END [A-Z0-9 ]*PRIVATE KEY-----/)[0])) {
      masked = masked.replace(PRIVATE_KEY_END, (_, end: string) => `${MASKED}\n${end}`);
    }
    masked = masked.replace(PRIVATE_KEY_BLOCK, (_, begin: string, end: string | undefined) => `${begin}\n${MASKED}${end ? `\n${end}` : ''}`);
  }
  masked = masked.replace(URL_PASSWORD, `$1${MASKED}@`);
  masked = masked.replace(BEARER, `$1${MASKED}`);
  masked = masked.replace(KEY_VALUE, (whole, lead: string, scheme: string | undefined, doubled?: string, single?: string, bare?: string) => {
    const value = doubled ?? single ?? bare ?? '';
    if (value === MASKED || value === '') return whole;
    const quote = doubled !== undefined ? '"' : single !== undefined ? "'" : '';
    return `${lead}${scheme ? `${scheme} ` : ''}${quote}${MASKED}${quote}`;
  });
  for (const [shape, keep] of TOKEN_SHAPES) masked = masked.replace(shape, `${keep}${MASKED}`);
  return masked;
}

const maskOrNull = (text: string | null) => (text === null ? null : maskSecrets(text));

/**
 * `alert` as a channel is sent it: what the job said (its output, --message or fail body) and the
 * words of other alerts (a server's changed crontab line) masked.
 */
export function maskAlertSecrets(alert: Alert): Alert {
  const run = alert.run ? { ...alert.run, output_tail: maskOrNull(alert.run.output_tail) } : null;
  const reason = alert.reason.kind === 'other' ? { ...alert.reason, title: maskSecrets(alert.reason.title), description: maskSecrets(alert.reason.description) } : alert.reason;
  return { ...alert, reason, run };
}
