import { resolveTimeZone } from '../time/timeZones';

/*
 * The zone at the end of a calendar event ("Mon 09:00 Europe/Paris"): systemd takes a name of its
 * zoneinfo folder, letter case and all, abbreviations that have a file (EST, CET, GMT) included.
 * (On a machine whose own zone uses that abbreviation, CET on a Berlin one, systemd reads it as
 * that half of the year's time instead and elapses no more after the next switch; the file's
 * reading agrees with it until then, and expects the runs the stopped timer misses.)
 */

/** Whether `zone` is an IANA zone the runtime knows (systemd asks its zoneinfo folder). */
export function knownZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    // systemd looks for the zone's file, so the letter case counts (europe/paris is no zone there);
    // an old name (US/Eastern) resolves to another one and is taken, as its file exists.
    return resolved === zone || resolved.toLowerCase() !== zone.toLowerCase();
  } catch {
    return false;
  }
}

/** Looks like a zone, not a mistyped time: a name with a region, or an abbreviation in capitals (EST, PST8PDT). */
export function zoneLike(word: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_+-]*\/[A-Za-z0-9_+\-/]+$/.test(word) || /^[A-Z][A-Z0-9+-]{2,}$/.test(word);
}

/** Why a zone-like last word that is no zone file is not taken, in words naming what it may mean. */
export function zoneRefusal(word: string): string {
  const resolved = resolveTimeZone(word);
  if (resolved.error !== undefined) return `The zone at the end: ${resolved.error}`;
  return `The zone at the end is written as the zone database writes it, capitals included: ${resolved.zone}.`;
}
