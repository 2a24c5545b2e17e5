/**
 * The zone as it should be stored, or null when `Intl` does not know it (offsets such as
 * "+02:00" are not zone names). Only the letter case is corrected ("europe/paris" →
 * "Europe/Paris"): a valid name is kept as given, since ICU would turn current names such as
 * Asia/Kolkata back into legacy ones (Asia/Calcutta) that users do not recognise.
 */
export function canonicalTimeZone(zone: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return null;
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
  } catch {
    return null;
  }
}
