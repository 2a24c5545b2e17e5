import type { Log } from '../../log/logger';

/*
 * Secrets never reach a log: API tokens (cb_…), Bearer credentials, monitor tokens in pulse URLs,
 * one-time sign-in codes, and the tokens in Telegram, Slack and Discord URLs. Every log line of the agent goes through redactSecrets.
 */

const SECRETS: Array<[RegExp, string]> = [
  [/\/api\/pulse\/[^/?#\s"']+/gi, '/api/pulse/[token]'],
  [/\bcb_[A-Za-z0-9_-]+/g, 'cb_[redacted]'],
  // A Telegram bot token in a Bot API URL.
  [/\/bot\d+:[A-Za-z0-9_-]+/g, '/bot[token]'],
  // Slack's and Discord's webhook URLs are their secret (their path: team, hook and token).
  [/\/services\/T[A-Za-z0-9]+\/B[A-Za-z0-9]+\/[A-Za-z0-9]+/g, '/services/[redacted]'],
  [/\/api\/webhooks\/\d+\/[A-Za-z0-9_-]+/g, '/api/webhooks/[redacted]'],
  [/\b(Bearer\s+)\S+/gi, '$1[redacted]'],
  [/\b(code["']?\s*[=:]\s*["']?)[A-Za-z0-9_-]+/gi, '$1[redacted]'],
];

export function redactSecrets(line: string): string {
  return SECRETS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), line);
}

/** Wraps a log function so that no line it writes carries a secret. */
export function redactingLog(log: Log): Log {
  return (line, fields) => log(redactSecrets(line), fields);
}
