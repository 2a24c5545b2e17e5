import { resolveTimeZone } from './timeZones';

/**
 * The zone as it should be stored, or null when it is not one: a current IANA name with its
 * letter case corrected ("europe/paris" → "Europe/Paris"), an old name as its current one
 * (Asia/Calcutta → Asia/Kolkata), and null for an abbreviation (EST) or anything unknown. The
 * rule, and the words that explain a refusal, are resolveTimeZone's (agent/domain/timeZones.ts).
 */
export function canonicalTimeZone(zone: string): string | null {
  return resolveTimeZone(zone).zone ?? null;
}
