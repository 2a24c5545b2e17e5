/*
 * A zone's UTC offset at an instant, and the instants where it changes (daylight-saving
 * switches, or a zone moving its standard time), found once per zone and year.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's UTC offset at `ms`, as a label such as "GMT-04:00". */
export function utcOffset(ms: number, timezone: string): string {
  let formatter = offsetFormatters.get(timezone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timezone, formatter);
  }
  return formatter.formatToParts(ms).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/** The zone's UTC offset at `ms` in milliseconds east of UTC ("GMT+10:30" is 37,800,000; "GMT" is 0). */
export function utcOffsetMs(ms: number, timezone: string): number {
  const match = /^GMT([+-])(\d{2}):(\d{2})/.exec(utcOffset(ms, timezone));
  if (!match) return 0;
  const size = (Number(match[2]) * 60 + Number(match[3])) * 60_000;
  return match[1] === '-' ? -size : size;
}

const switchesByZoneYear = new Map<string, number[]>();
const MAX_REMEMBERED_ZONE_YEARS = 1_000;

/** The first millisecond after `from` with the offset that `to` has (the two differ). */
function firstWithOffsetOf(timezone: string, from: number, to: number): number {
  const target = utcOffset(to, timezone);
  let low = from;
  let high = to;
  while (high - low > 1) {
    const middle = low + Math.floor((high - low) / 2);
    if (utcOffset(middle, timezone) === target) high = middle;
    else low = middle;
  }
  return high;
}

/**
 * The instants of calendar year `year` (UTC) where the zone's offset changes, ascending:
 * sampled once a day (zones switch at most once a day), each change then found to the
 * millisecond. About 400 offset look-ups, once per zone and year.
 */
function switchesInYear(timezone: string, year: number): number[] {
  const key = `${timezone}\n${year}`;
  let switches = switchesByZoneYear.get(key);
  if (switches) return switches;
  switches = [];
  const end = Date.UTC(year + 1, 0, 1);
  let at = Date.UTC(year, 0, 1);
  let offset = utcOffset(at, timezone);
  while (at < end) {
    const next = Math.min(at + DAY, end);
    const nextOffset = utcOffset(next, timezone);
    if (nextOffset !== offset) switches.push(firstWithOffsetOf(timezone, at, next));
    at = next;
    offset = nextOffset;
  }
  if (switchesByZoneYear.size >= MAX_REMEMBERED_ZONE_YEARS) switchesByZoneYear.clear();
  switchesByZoneYear.set(key, switches);
  return switches;
}

/** The instants in `from`..`to` (both included) where the zone's offset changes, ascending. */
export function offsetSwitchesBetween(timezone: string, from: number, to: number): number[] {
  const found: number[] = [];
  const last = new Date(to).getUTCFullYear();
  for (let year = new Date(from).getUTCFullYear(); year <= last; year++) {
    for (const at of switchesInYear(timezone, year)) if (at >= from && at <= to) found.push(at);
  }
  return found;
}
