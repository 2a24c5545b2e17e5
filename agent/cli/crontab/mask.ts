/** Words that mark the value next to them as a secret. */
const SECRET_WORD = '(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[-_]?key|apikey|auth|credentials?|private[-_]?key|access[-_]?key|signature|sig)';
const MASK = '***';

const RULES: [RegExp, string][] = [
  // user:password@ in URLs
  [/([a-z][a-z0-9+.-]*:\/\/[^\s:@/]+:)[^\s@/]+@/gi, `$1${MASK}@`],
  // Authorization headers
  [/(authorization:\s*(?:bearer\s+|basic\s+|token\s+)?)[^\s'"]+/gi, `$1${MASK}`],
  // name=value: env assignments, --option=value, URL query parameters
  [new RegExp(`([A-Za-z0-9_.-]*${SECRET_WORD}[A-Za-z0-9_.-]*=)("[^"]*"|'[^']*'|[^\\s&;'"]+)`, 'gi'), `$1${MASK}`],
  // --option value
  [new RegExp(`(\\s--?[A-Za-z0-9_-]*${SECRET_WORD}[A-Za-z0-9_-]*\\s+)("[^"]*"|'[^']*'|[^\\s-]\\S*)`, 'gi'), `$1${MASK}`],
  // UUIDs (pulse tokens of other services, API keys)
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, MASK],
  // long random-looking words: 20+ letters and digits, with both
  [/\b(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{20,}\b/g, MASK],
];

/** mysql and mariadb take the password glued to -p: -pSECRET. */
const GLUED_MYSQL_PASSWORD = /(\s-p)([^\s]+)/g;

/**
 * The command with secrets replaced by ***: passwords and tokens given as name=value or as an
 * option's value, credentials in URLs, Authorization headers, UUIDs and long random words.
 */
export function maskSecrets(command: string): string {
  let masked = command;
  for (const [pattern, replacement] of RULES) masked = masked.replace(pattern, replacement);
  if (/\b(mysql|mysqldump|mariadb|mariadb-dump)\b/.test(masked)) masked = masked.replace(GLUED_MYSQL_PASSWORD, `$1${MASK}`);
  return masked;
}

const NAME_LIMIT = 120;

/**
 * A monitor name for a cron command: secrets masked, output redirections to /dev/null dropped,
 * spaces collapsed, and cut at 120 characters.
 */
export function monitorNameFor(shellCommand: string): string {
  const name = maskSecrets(shellCommand)
    .replace(/\s*\d?>>?\s*\/dev\/null/g, '')
    .replace(/\s*2>&1/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const short = name.length > NAME_LIMIT ? `${name.slice(0, NAME_LIMIT - 1)}…` : name;
  return short || 'cron job';
}
