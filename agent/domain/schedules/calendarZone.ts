import { resolveTimeZone } from '../time/timeZones';
import { ZONE_FILE_NAMES } from './zoneFileNames';

/*
 * The zone at the end of a calendar event ("Mon 09:00 Europe/Paris"): systemd takes a name of its
 * zoneinfo folder, letter case and all, abbreviations that have a file (EST, CET, GMT) included.
 * (On a machine whose own zone uses that abbreviation, CET on a Berlin one, systemd reads it as
 * that half of the year's time instead and elapses no more after the next switch; the file's
 * reading agrees with it until then, and expects the runs the stopped timer misses.)
 */

let listed: ReadonlySet<string> | null = null;

/** Whether `zone` names a zone file as systemd finds one (its letter case included), and the runtime can compute its clock. */
export function knownZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  listed ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (!ZONE_FILE_NAMES.has(zone) && !listed.has(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Whether the runtime knows `word` as a zone in some letter case: a zone file name written otherwise. */
function zoneInOtherCase(word: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: word });
    return /^[A-Za-z]/.test(word);
  } catch {
    return false;
  }
}

/**
 * The zone to compute with for the zone file `word` names, as systemd takes any file of its
 * zoneinfo folder: a zone name; posix/NAME (a copy of NAME); right/NAME (NAME counting leap
 * seconds, libcTime.ts reads it); posixrules (New York's rules, which tzdata links it to); Factory
 * (UTC); localtime (the machine's zone, null: the monitor's, which stands for it). Undefined when
 * it names no zone file.
 */
export function zoneFile(word: string, stored = false): { zone: string | null } | undefined {
  // A schedule stored when any letter case Intl resolves was taken (us/eastern) keeps being read.
  if (knownZone(word) || (stored && zoneInOtherCase(word))) return { zone: word };
  if (word === 'localtime') return { zone: null };
  if (word === 'posixrules') return { zone: 'America/New_York' };
  if (word === 'Factory') return { zone: 'Etc/UTC' };
  const [folder, name] = [word.slice(0, word.indexOf('/')), word.slice(word.indexOf('/') + 1)];
  const inner = name === 'Factory' ? 'Etc/UTC' : knownZone(name) ? name : null;
  if (folder === 'posix' && inner !== null) return { zone: inner };
  if (folder === 'right' && inner !== null) return { zone: `right/${inner}` };
  return undefined;
}

/** Looks like a zone, not a mistyped time: a name with a region, or an abbreviation in capitals (EST, PST8PDT). */
export function zoneLike(word: string): boolean {
  return zoneInOtherCase(word) || /^[A-Za-z][A-Za-z0-9_+-]*\/[A-Za-z0-9_+\-/]+$/.test(word) || /^[A-Z][A-Z0-9+-]{2,}$/.test(word);
}

/** Why a zone-like last word that is no zone file is not taken, in words naming what it may mean. */
export function zoneRefusal(word: string): string {
  const resolved = resolveTimeZone(word.replace(/^(posix|right)\//, ''));
  if (resolved.error !== undefined) return `The zone at the end: ${resolved.error}`;
  return `The zone at the end is written as the zone database writes it, capitals included: ${resolved.zone}.`;
}
