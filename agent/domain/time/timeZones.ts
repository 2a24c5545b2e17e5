import { rawTimeZones, timeZonesNames } from '@vvo/tzdb';
import { distance } from 'fastest-levenshtein';
import { offsetAnswer, typedOffset } from './utcOffsets';

/*
 * Time zones as people name them, one rule for the API, the dashboard and the CLI.
 *
 * - A current IANA name (Europe/Paris, Asia/Kolkata, UTC, Etc/GMT+5) is taken, its letter
 *   case corrected.
 * - An old name of a place's zone (Asia/Calcutta, US/Eastern, Europe/Kiev, Japan, GMT) is
 *   taken as the current name, with a note saying so: it means exactly the same clock.
 * - An abbreviation (EST, CET, IST, PST8PDT) is refused, with the zones it may mean: EST is
 *   UTC−05:00 all year, so a job at 03:00 "EST" would run an hour off half the year.
 * - Anything else is refused with the zones it may mean, found by place (city, country).
 * - A crontab's CRON_TZ is another matter: cron takes any zone of the machine's tz database,
 *   EST included, so resolveCronTimeZone (below) takes those too.
 *
 * The current names and the places come from @vvo/tzdb (geonames' cities, countries and
 * abbreviations), not from a hand list; Intl only tells which old names are the same zone.
 */

export type ZoneAnswer =
  | { zone: string; note?: string; error?: undefined; suggestions?: undefined }
  | { zone?: undefined; note?: undefined; error: string; suggestions: string[] };

export interface ZoneMatch {
  zone: string;
  /** "New York" for America/New_York: the place a person recognises. */
  place: string;
  /** "United States". */
  country: string;
}

interface ZoneEntry extends ZoneMatch {
  /** Main cities, the zone's long name ("India Time") and its abbreviations, normalised. */
  words: string[];
  abbreviations: string[];
  /** How many zone names share its clock: the big zone of a country comes first. */
  weight: number;
}

/** Lower case, underscores as spaces, accents and punctuation gone: "São_Paulo" → "sao paulo". */
export function normalisePlace(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[_\-.,]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const cityOf = (zone: string) => zone.split('/').pop()!.replace(/_/g, ' ');

const UTC_NAMES = new Set(['utc', 'etc/utc', 'gmt', 'etc/gmt', 'uct', 'etc/uct', 'universal', 'etc/universal', 'zulu', 'etc/zulu', 'greenwich', 'etc/greenwich', 'gmt0', 'gmt+0', 'gmt-0', 'etc/gmt0', 'etc/gmt+0', 'etc/gmt-0']);
const FIXED_OFFSET = /^etc\/gmt([+-])(\d{1,2})$/i;

let entries: ZoneEntry[] | null = null;
let abbreviations: Set<string> | null = null;

/**
 * Whether a name without a region is an abbreviation: one geonames lists (EST, IST, CEST), or
 * an old capitalised zone name Intl still knows (EST5EDT, PST8PDT, GB, PRC).
 */
function isAbbreviation(name: string): boolean {
  if (name.includes('/')) return false;
  abbreviations ??= new Set(zoneEntries().flatMap((entry) => entry.abbreviations));
  return abbreviations.has(name.toUpperCase()) || (/^[A-Z][A-Z0-9+-]*$/.test(name) && intlId(name) !== null);
}
let currentByLowerName: Map<string, string> | null = null;

/** Every current zone with its place, country and the words that find it; built once. */
function zoneEntries(): ZoneEntry[] {
  if (entries) return entries;
  const current = new Set(timeZonesNames);
  entries = [{ zone: 'UTC', place: 'UTC', country: '', words: ['utc', 'gmt', 'coordinated universal time'], abbreviations: ['UTC', 'GMT'], weight: 0 }];
  for (const raw of rawTimeZones) {
    const members = [raw.name, ...raw.group.filter((name) => name !== raw.name && current.has(name))];
    for (const zone of members) {
      const main = zone === raw.name;
      entries.push({
        zone,
        place: cityOf(zone),
        country: raw.countryName,
        words: main ? [...raw.mainCities, raw.alternativeName].map(normalisePlace) : [],
        abbreviations: main ? [raw.abbreviation, ...(raw.dstAbbreviation ? [raw.dstAbbreviation] : [])] : [],
        weight: main ? raw.group.length : 0,
      });
    }
  }
  return entries;
}

let byWeight: string[] | null = null;

/** The main zone of each place, the big zone of a country first: the cities an offset is offered. */
function placeZones(): string[] {
  byWeight ??= zoneEntries()
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.zone.localeCompare(b.zone))
    .map((entry) => entry.zone);
  return byWeight;
}

/** Every current zone name, UTC first: what a zone picker lists. */
export function currentZoneNames(): string[] {
  return zoneEntries().map((entry) => entry.zone);
}

function currentZone(name: string): string | undefined {
  currentByLowerName ??= new Map(zoneEntries().map((entry) => [entry.zone.toLowerCase(), entry.zone]));
  return currentByLowerName.get(name.toLowerCase());
}

/** Intl's own id of a zone (it keeps old names: Asia/Kolkata is Asia/Calcutta to it); null when unknown. */
function intlId(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

let currentByIntlId: Map<string, string> | null = null;

/** The current name of an old one (Asia/Calcutta → Asia/Kolkata), when Intl says they are the same zone. */
function currentNameOf(oldName: string): string | undefined {
  const id = intlId(oldName);
  if (id === null) return undefined;
  if (!currentByIntlId) {
    currentByIntlId = new Map();
    for (const { zone } of zoneEntries()) {
      const key = intlId(zone);
      if (key !== null && !currentByIntlId.has(key)) currentByIntlId.set(key, zone);
    }
  }
  return currentByIntlId.get(id);
}

/**
 * The zones `query` may mean, best first: a zone, city or country typed whole ("Paris",
 * "india"), an abbreviation (EST), then places starting with it, then words starting with it,
 * then zone names containing it. Empty for an empty query.
 */
export function searchZones(query: string, limit = 8): ZoneMatch[] {
  const wanted = normalisePlace(query);
  if (!wanted) return [];
  const upper = query.trim().toUpperCase();
  const rank = (entry: ZoneEntry): number => {
    const place = normalisePlace(entry.place);
    const country = normalisePlace(entry.country);
    if (place === wanted || normalisePlace(entry.zone) === wanted || entry.words.includes(wanted)) return 0;
    if (country === wanted) return 1;
    if (entry.abbreviations.includes(upper)) return 2;
    if (place.startsWith(wanted) || country.startsWith(wanted) || entry.words.some((w) => w.startsWith(wanted))) return 3;
    const words = [place, country, ...entry.words].flatMap((text) => text.split(' '));
    if (words.some((word) => word.startsWith(wanted))) return 4;
    if (normalisePlace(entry.zone.replace(/\//g, ' ')).includes(wanted)) return 5;
    return -1;
  };
  return zoneEntries()
    .map((entry) => ({ entry, rank: rank(entry) }))
    .filter(({ rank: r }) => r >= 0)
    .sort((a, b) => a.rank - b.rank || b.entry.weight - a.entry.weight || a.entry.zone.localeCompare(b.entry.zone))
    .slice(0, limit)
    .map(({ entry: { zone, place, country } }) => ({ zone, place, country }));
}

/** "Europe/Paris", "Europe/Paris or Europe/Brussels", "A, B or C". */
function either(zones: string[]): string {
  return zones.length <= 1 ? (zones[0] ?? '') : `${zones.slice(0, -1).join(', ')} or ${zones[zones.length - 1]}`;
}

/** What to offer for a name that is not a zone: places it names, else zone names spelt close to it. */
function suggestionsFor(input: string): string[] {
  const found = [...new Set(searchZones(input, 3).map((m) => m.zone))];
  if (found.length > 0) return found;
  const wanted = input.trim().toLowerCase();
  return zoneEntries()
    .map(({ zone }) => ({ zone, distance: closeness(wanted, zone.toLowerCase()) }))
    .filter(({ distance }) => distance <= Math.max(2, Math.floor(wanted.length / 4)))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, 3)
    .map(({ zone }) => zone);
}

/** Edit distance against the whole name or its city part, whichever is closer. */
function closeness(wanted: string, zone: string): number {
  return Math.min(distance(wanted, zone), distance(wanted, zone.split('/').pop()!));
}

/**
 * The zone a zone name means, by the rule at the top of this file: the current name (with a
 * note when an old one was given), or an error with the zones it may mean.
 */
export function resolveTimeZone(input: string): ZoneAnswer {
  const typed = input.trim();
  if (!typed) return { error: 'Give a time zone, such as Europe/Paris.', suggestions: [] };
  const current = currentZone(typed);
  if (current) return { zone: current };
  if (UTC_NAMES.has(typed.toLowerCase())) return { zone: 'UTC', note: `${typed} is stored as UTC.` };
  const fixed = FIXED_OFFSET.exec(typed);
  if (fixed && intlId(typed) !== null) return { zone: `Etc/GMT${fixed[1]}${Number(fixed[2])}` };
  // "UTC+2" is not offered "UTC": it is explained (Etc/GMT-2, the sign reversed) beside cities of that clock.
  const offset = typedOffset(typed);
  if (offset === 0) return { zone: 'UTC', note: `${typed} is stored as UTC.` };
  if (offset !== null) return offsetAnswer(typed, offset, placeZones());
  if (isAbbreviation(typed)) {
    const upper = typed.toUpperCase();
    const byAbbreviation = zoneEntries()
      .filter((entry) => entry.abbreviations.includes(upper))
      .sort((a, b) => b.weight - a.weight)
      .map((entry) => entry.zone);
    const same = currentNameOf(typed);
    const suggestions = byAbbreviation.length > 0 ? byAbbreviation.slice(0, 3) : same ? [same] : suggestionsFor(typed);
    return {
      error: `"${typed}" is an abbreviation, not a time zone (abbreviations do not follow a place's daylight saving)${suggestions.length ? `: did you mean ${either(suggestions)}?` : '; give one such as Europe/Paris.'}`,
      suggestions,
    };
  }
  const renamed = currentNameOf(typed);
  if (renamed) return { zone: renamed, note: `${typed} is an old name of ${renamed}; it is stored as ${renamed}.` };
  const suggestions = suggestionsFor(typed);
  return {
    error: `"${typed}" is not a time zone${suggestions.length ? `: did you mean ${either(suggestions)}?` : '; give one such as Europe/Paris.'}`,
    suggestions,
  };
}

/**
 * The zones to offer for what a person typed, best first, agreeing with what the field takes and
 * the error says: the zone a place names ("india" → Asia/Kolkata) first, then the zones an error
 * suggests (for "UTC+2", Etc/GMT-2 and cities of that clock), then what searchZones finds. Empty
 * when a zone's own name is typed.
 */
export function zoneChoices(input: string, limit = 6): ZoneMatch[] {
  const found = findTimeZone(input);
  if (found.zone !== undefined && found.zone === input.trim()) return [];
  const names = [...(found.zone ? [found.zone] : []), ...(found.suggestions ?? resolveTimeZone(input).suggestions ?? []), ...searchZones(input, limit).map((m) => m.zone)];
  const byZone = new Map(zoneEntries().map((entry) => [entry.zone, entry]));
  return [...new Set(names)].slice(0, limit).map((zone) => {
    const entry = byZone.get(zone);
    return { zone, place: entry?.place ?? zone, country: entry?.country ?? '' };
  });
}

/**
 * What a person typed in a zone field or flag: a zone name (resolveTimeZone), or else a city
 * or country typed whole that only one zone has ("Paris", "india", "San Francisco"), with a
 * note naming the zone. An error (with the zones to pick from) otherwise.
 */
export function findTimeZone(input: string): ZoneAnswer {
  const byName = resolveTimeZone(input);
  if (byName.zone !== undefined || isAbbreviation(input.trim())) return byName;
  const wanted = normalisePlace(input);
  const whole = new Set(
    zoneEntries()
      .filter((e) => normalisePlace(e.place) === wanted || e.words.includes(wanted) || (e.weight > 0 && normalisePlace(e.country) === wanted))
      .map((e) => e.zone),
  );
  if (whole.size !== 1) return byName;
  const [zone] = whole;
  return { zone: zone!, note: `${input.trim()} → ${zone}` };
}

/** How the tz database spells a zone's file: words of letters, digits, _ + -, joined by /. */
const TZDB_NAME = /^[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)*$/;

/**
 * The zone a crontab's CRON_TZ (or TZ) names, as cron reads it: any zone of the machine's tz
 * database (`isMachineZone`), the names resolveTimeZone refuses from a person included (EST,
 * MST, HST, EST5EDT, CET): to cron they are not guesses but zones with their own rules. A name
 * resolveTimeZone takes is taken as it takes it; any other the machine has is stored as the
 * current zone with the same clock (EST → America/Panama, EST5EDT → America/New_York), with a
 * note. An error when the machine has no such zone, or no current zone keeps its clock.
 */
export function resolveCronTimeZone(name: string, isMachineZone: (zone: string) => boolean): ZoneAnswer {
  const typed = name.trim();
  const byName = resolveTimeZone(typed);
  if (byName.zone !== undefined) return byName;
  if (!TZDB_NAME.test(typed) || !isMachineZone(typed)) {
    const hint = byName.suggestions.length ? `: did you mean ${either(byName.suggestions)}?` : '';
    return { error: `CRON_TZ "${typed}" is not a time zone of this machine (cron finds none in /usr/share/zoneinfo)${hint}`, suggestions: byName.suggestions };
  }
  const same = currentNameOf(typed);
  if (!same) return { error: `CRON_TZ "${typed}" is a file of /usr/share/zoneinfo, but no time zone Cronbeat knows keeps its clock`, suggestions: [] };
  return { zone: same, note: `CRON_TZ=${typed} is the zone ${typed} of the tz database (/usr/share/zoneinfo/${typed}), which keeps the clock of ${same}: monitored in ${same}.` };
}

/**
 * The zone as it should be stored, or null when it is not one: a current IANA name with its
 * letter case corrected ("europe/paris" → "Europe/Paris"), an old name as its current one
 * (Asia/Calcutta → Asia/Kolkata), and null for an abbreviation (EST) or anything unknown. The
 * rule, and the words that explain a refusal, are resolveTimeZone's (below).
 */
export function canonicalTimeZone(zone: string): string | null {
  return resolveTimeZone(zone).zone ?? null;
}
