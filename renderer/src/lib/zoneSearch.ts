/*
 * Time zone search as people type a place: "Paris", "new york", "los angeles", "Europe". IANA
 * names are Region/City with underscores; people type the city with spaces, in any case, and
 * often a big city that has no zone of its own (San Francisco is America/Los_Angeles).
 */

export interface ZoneMatch {
  zone: string;
  /** "New York" for America/New_York; the place a person recognises. */
  place: string;
  /** "America" for America/New_York, "America, Argentina" for America/Argentina/Buenos_Aires. */
  region: string;
}

/**
 * Places people type that are not the city of a zone name, each with its zone: big cities that
 * share a zone, and current names that ICU lists under an older one (Kolkata, Kyiv).
 */
const PLACES: Readonly<Record<string, string>> = {
  'San Francisco': 'America/Los_Angeles',
  Seattle: 'America/Los_Angeles',
  'San Diego': 'America/Los_Angeles',
  Boston: 'America/New_York',
  Washington: 'America/New_York',
  Miami: 'America/New_York',
  Atlanta: 'America/New_York',
  Philadelphia: 'America/New_York',
  Dallas: 'America/Chicago',
  Houston: 'America/Chicago',
  Austin: 'America/Chicago',
  Montreal: 'America/Toronto',
  'Rio de Janeiro': 'America/Sao_Paulo',
  Munich: 'Europe/Berlin',
  Frankfurt: 'Europe/Berlin',
  Hamburg: 'Europe/Berlin',
  Lyon: 'Europe/Paris',
  Marseille: 'Europe/Paris',
  Barcelona: 'Europe/Madrid',
  Milan: 'Europe/Rome',
  Geneva: 'Europe/Zurich',
  Manchester: 'Europe/London',
  Edinburgh: 'Europe/London',
  'St Petersburg': 'Europe/Moscow',
  Kyiv: 'Europe/Kyiv',
  Kolkata: 'Asia/Kolkata',
  Mumbai: 'Asia/Kolkata',
  Delhi: 'Asia/Kolkata',
  'New Delhi': 'Asia/Kolkata',
  Bangalore: 'Asia/Kolkata',
  Beijing: 'Asia/Shanghai',
  Shenzhen: 'Asia/Shanghai',
  'Ho Chi Minh': 'Asia/Ho_Chi_Minh',
  Osaka: 'Asia/Tokyo',
  Melbourne: 'Australia/Melbourne',
  Canberra: 'Australia/Sydney',
  Wellington: 'Pacific/Auckland',
  UTC: 'UTC',
  GMT: 'UTC',
};

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

/** The place and region of a zone name: America/New_York → New York, America. */
export function zonePlace(zone: string): ZoneMatch {
  const parts = zone.split('/');
  const place = (parts.length > 1 ? parts[parts.length - 1]! : zone).replace(/_/g, ' ');
  return { zone, place, region: parts.slice(0, -1).join(', ') };
}

/**
 * The zones `query` may mean, best first: a place or zone typed whole, then places starting
 * with it, then places with a word starting with it, then zone names containing it. Empty for
 * an empty query.
 */
export function searchZones(query: string, zones: readonly string[], limit = 8): ZoneMatch[] {
  const wanted = normalisePlace(query);
  if (!wanted) return [];
  const candidates: ZoneMatch[] = [
    ...zones.map(zonePlace),
    ...Object.entries(PLACES).map(([place, zone]) => ({ zone, place, region: zonePlace(zone).region })),
  ];
  const rank = (match: ZoneMatch): number => {
    const place = normalisePlace(match.place);
    const zone = normalisePlace(match.zone.replace(/\//g, ' '));
    if (place === wanted || normalisePlace(match.zone) === wanted) return 0;
    if (place.startsWith(wanted)) return 1;
    if (place.split(' ').some((word) => word.startsWith(wanted))) return 2;
    if (zone.includes(wanted)) return 3;
    return -1;
  };
  const seen = new Set<string>();
  return candidates
    .map((match) => ({ match, rank: rank(match) }))
    .filter(({ rank: r }) => r >= 0)
    .sort((a, b) => a.rank - b.rank || a.match.place.localeCompare(b.match.place))
    .filter(({ match }) => {
      const key = `${match.place}\n${match.zone}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, limit)
    .map(({ match }) => match);
}

/**
 * The zone `input` names: a zone name in any letter case, or a place typed whole that only one
 * zone has ("Paris", "new york", "Mumbai"). Null when it names none, or several (say
 * "Europe"), for the person to pick.
 */
export function resolveZone(input: string, zones: readonly string[]): string | null {
  const typed = input.trim();
  if (!typed) return null;
  const exact = zones.find((zone) => zone.toLowerCase() === typed.toLowerCase());
  if (exact) return exact;
  const whole = [...new Set(searchZones(typed, zones, 50).filter((m) => normalisePlace(m.place) === normalisePlace(typed)).map((m) => m.zone))];
  if (whole.length === 1) return whole[0]!;
  // Names Intl knows without listing them: current ones (Asia/Kolkata), Etc/GMT+5, EST.
  return whole.length === 0 && /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(typed) && isZone(typed) ? typed : null;
}

/** Whether this browser's Intl knows the zone (it accepts current names it does not list). */
function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
