import { utcOffsetMs } from './zoneOffsets';

/*
 * A UTC offset typed where a zone goes ("UTC+2", "GMT-5", "+05:30"). It is not a zone, and the
 * zone database's fixed-offset zones have the opposite sign (POSIX): Etc/GMT-2 is UTC+2. So an
 * offset is refused with an explanation: the Etc zone that keeps that clock all year, and cities
 * whose clock it is in winter or in summer, which follow their daylight saving.
 */

const OFFSET = /^(?:utc|gmt|z)?\s*([+\-\u2212])\s*(\d{1,2})(?::?([0-5]\d))?$/i;

/** Minutes east of UTC of a typed offset ("UTC+2" → 120, "-05:30" → -330); null for anything else. */
export function typedOffset(text: string): number | null {
  const match = OFFSET.exec(text.trim());
  if (!match) return null;
  const hours = Number(match[2]);
  const minutes = match[3] === undefined ? 0 : Number(match[3]);
  if (hours > 14 || (hours === 14 && minutes > 0)) return null;
  return (match[1] === '+' ? 1 : -1) * (hours * 60 + minutes);
}

/** "UTC+2", "UTC+5:30", "UTC-5" (a hyphen, as people type it). */
export function offsetWords(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const rest = abs % 60;
  return `UTC${sign}${Math.floor(abs / 60)}${rest ? `:${String(rest).padStart(2, '0')}` : ''}`;
}

/** The zone database's zone for a whole-hour offset, its sign reversed (UTC+2 is Etc/GMT-2); null when there is none. */
export function etcZoneOf(minutes: number): string | null {
  if (minutes % 60 !== 0 || minutes === 0 || minutes > 14 * 60 || minutes < -12 * 60) return null;
  const hours = minutes / 60;
  return `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
}

// Mid-January and mid-July of one year: a zone's winter and summer clocks, the same answer every time.
const JANUARY = Date.UTC(2026, 0, 15);
const JULY = Date.UTC(2026, 6, 15);

/** Minutes east of UTC of `zone` at `ms` ("GMT+05:30" → 330). */
function offsetAt(zone: string, ms: number): number {
  return utcOffsetMs(ms, zone) / 60_000;
}

/** "Europe/Berlin (UTC+1, UTC+2 in summer)", "Asia/Kolkata (UTC+5:30 all year)". */
function cityWords(zone: string): string {
  const [winter, summer] = [offsetAt(zone, JANUARY), offsetAt(zone, JULY)].sort((a, b) => a - b);
  return winter === summer ? `${zone} (${offsetWords(winter)} all year)` : `${zone} (${offsetWords(winter)}, ${offsetWords(summer)} in summer)`;
}

/**
 * Why `typed` (an offset of `minutes`) is not taken, and what to pick instead: the Etc zone of that
 * clock (when the database has one), then one of `zones` (best first) whose clock it is all year or
 * in winter and one whose clock it is in summer (two of the first kind when none has it in summer).
 */
export function offsetAnswer(typed: string, minutes: number, zones: string[]): { error: string; suggestions: string[] } {
  const yearRound: string[] = [];
  const summer: string[] = [];
  for (const zone of zones) {
    if (yearRound.length >= 2 && summer.length >= 1) break;
    const [january, july] = [offsetAt(zone, JANUARY), offsetAt(zone, JULY)];
    const standard = Math.min(january, july);
    const daylight = Math.max(january, july);
    if (standard === minutes && yearRound.length < 2) yearRound.push(zone);
    else if (daylight === minutes && standard !== minutes && summer.length < 1) summer.push(zone);
  }
  // One of each kind when there are both: the offset all year or in winter, and in summer (UTC+2 is Berlin's summer).
  const cities = summer.length ? [...yearRound.slice(0, 1), ...summer] : yearRound;
  const etc = etcZoneOf(minutes);
  const words = offsetWords(minutes);
  const explained = etc
    ? `${words} is ${etc} in the zone database (its sign is reversed), a clock that never changes for daylight saving`
    : `the zone database has no zone for ${words} alone`;
  const pick = cities.length ? `; or pick a city such as ${cities.map(cityWords).join(' or ')}` : '';
  return {
    error: `"${typed.trim()}" is a UTC offset, not a time zone: ${explained}${pick}.`,
    suggestions: [...(etc ? [etc] : []), ...cities],
  };
}
