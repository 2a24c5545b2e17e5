import { CronExpressionParser } from 'cron-parser';

/**
 * The zone's canonical IANA name when `Intl` knows it ("europe/paris" → "Europe/Paris"),
 * or null when it is not a zone name (offsets such as "+02:00" are not).
 */
export function canonicalTimeZone(zone: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** True when `expression` is a cron expression of exactly five fields that cron-parser accepts. */
export function isFiveFieldCron(expression: string): boolean {
  if (expression.trim().split(/\s+/).length !== 5) return false;
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC' });
    return true;
  } catch {
    return false;
  }
}
