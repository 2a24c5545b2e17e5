import { isNoticeReason, type Alert, type NoticeReason } from '../alerts/alert';

/*
 * Secrets a job printed, masked in what leaves the agent for a channel (docs/security.md, "Secrets
 * in job output"): chat services, inboxes and webhooks keep messages for years and show them to
 * everyone in the room. What is stored (the database, the API, the dashboard) keeps the output as
 * it was. A channel turns this off with its setting mask_secrets: false. Pure.
 */

/** What a masked value reads as. */
export const MASKED = '***';

/**
 * A key that names a secret: secret, token, password, passwd, pass and passphrase as a word of
 * their own (DB_PASS; not "passed" or "bypass"), pwd, key (apikey, api_key…), auth, credential.
 */
const SECRET_KEY = /secret|token|passw(?:or)?d|(?<![a-z])pass(?:phrase)?(?![a-z])|pwd|key|auth|credential/i;

/**
 * `KEY=value`, `KEY: value`, `"key": "value"`, `key='v a l'`, `:key => "value"` (Ruby, Perl), and
 * JSON quoted inside a JSON string (`{\"key\":\"value\"}`, a log line quoting another): a key
 * and its separator, then its value (read on from there, a quoted one to its closing quote, past
 * escaped ones); an authorization scheme (Bearer, Basic, Token) before the value stays. A key starts where a run of key characters starts (the lookbehind), and whether it names a
 * secret is asked of the key alone: a pattern with the secret words inside took seconds on a line
 * such as "key-key-key-…". A key that names none leaves its value to be read again (a URL's
 * "https:" before "?access_token=…").
 */
// eslint-disable-next-line no-control-regex -- a colour's ESC sequence between a key and its separator (a coloured log)
const KEY = /(?<![A-Za-z0-9_.-])(?:\\?["'])?([A-Za-z0-9_.-]+)(?:\\?["'])?(?:\u001b\[[0-9;]*m){0,3}[ \t]*(?:=>|[:=])[ \t]*/g;
const VALUE = /(?:(?:Bearer|Basic|Token|Digest)[ \t]+)?(?:\\"((?:[^"\\\n]|\\(?!"))*)\\"|"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|([^\s"',;&]+)|\\?["']([^\n]+))/iy;

function maskKeyValues(text: string): string {
  let out = '';
  let copied = 0;
  KEY.lastIndex = 0;
  for (let key = KEY.exec(text); key; key = KEY.exec(text)) {
    if (!SECRET_KEY.test(key[1])) continue;
    VALUE.lastIndex = KEY.lastIndex;
    const value = VALUE.exec(text);
    if (!value) continue;
    // An opening quote never closed (the output cut off there) runs to the end of the line (group 5).
    const secret = value[1] ?? value[2] ?? value[3] ?? value[4] ?? value[5];
    if (secret === '' || secret === MASKED) continue;
    // The secret is the value's last part (a scheme and an opening quote before it stay), before its closing quote.
    const end = VALUE.lastIndex - (value[1] !== undefined ? 2 : value[2] !== undefined || value[3] !== undefined ? 1 : 0);
    out += text.slice(copied, end - secret.length) + MASKED;
    copied = end;
    KEY.lastIndex = VALUE.lastIndex;
  }
  return out + text.slice(copied);
}

/** `--password VALUE` (a command line a job echoed, `set -x`): a long option naming a secret, then its value; `--no-…` takes none. */
const FLAG = /(?<!\S)--(?!no-)([A-Za-z0-9_.-]+)[ \t]+(?!-)("[^"\n]*"|'[^'\n]*'|[^\s"']+)/g;

function maskFlags(text: string): string {
  return text.replace(FLAG, (whole: string, name: string, value: string) => {
    if (!SECRET_KEY.test(name) || value === MASKED) return whole;
    const quote = /^["']/.test(value) ? value[0] : '';
    return `${whole.slice(0, whole.length - value.length)}${quote}${MASKED}${quote}`;
  });
}

const BEARER = /\b(Bearer[ \t]+)[A-Za-z0-9._~+/=-]+/gi;

/** -----BEGIN … PRIVATE KEY----- … -----END … PRIVATE KEY-----, and an unended one to the end of the text; PGP's `PRIVATE KEY BLOCK` too. */
const PRIVATE_KEY_BLOCK = /(-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)[^]*?(?:(-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)|$)/g;
/** The end of a block whose start was cut off (the output kept begins inside it). */
const PRIVATE_KEY_END = /^[^]*?(-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)/;

/** scheme://user:password@host: the password, up to the host's "@" (an unencoded "@" inside it is the password's). */
const URL_PASSWORD = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s/]+@/gi;

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
  if (/PRIVATE KEY(?: BLOCK)?-----/.test(masked)) {
    if (!/-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/.test(masked.split(/-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/)[0])) {
      masked = masked.replace(PRIVATE_KEY_END, (_, end: string) => `${MASKED}\n${end}`);
    }
    masked = masked.replace(PRIVATE_KEY_BLOCK, (_, begin: string, end: string | undefined) => `${begin}\n${MASKED}${end ? `\n${end}` : ''}`);
  }
  masked = masked.replace(URL_PASSWORD, `$1${MASKED}@`);
  masked = masked.replace(BEARER, `$1${MASKED}`);
  masked = maskKeyValues(masked);
  masked = maskFlags(masked);
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
  return { ...alert, reason: isNoticeReason(alert.reason) ? maskNotice(alert.reason) : alert.reason, run };
}

/** A notice's every text (a crontab line, a certificate's error, words kept from before) masked; its kind, numbers and times kept. */
function maskNotice(reason: NoticeReason): NoticeReason {
  const masked: Record<string, unknown> = { ...reason };
  for (const [key, value] of Object.entries(reason)) {
    if (key !== 'kind' && typeof value === 'string' && !key.endsWith('_at')) masked[key] = maskSecrets(value);
  }
  return masked as NoticeReason;
}
