/*
 * A second generator for the differential run (calendarDifferential.ts), for what the first one
 * writes seldom or never: weekday names in any letter case and the old "-" ranges, lists of up to
 * five parts in every field, repetitions of years, "~" with lists, ranges and repetitions,
 * seconds with fractions in ranges and repetitions (at most three decimals: Cronbeat keeps
 * milliseconds, systemd-analyze prints whole seconds, so a finer fraction cannot be compared
 * to the second), every shorthand and its aliases, and zones from the whole zone database.
 */

type Rand = () => number;
const pick = <T>(r: Rand, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

/** Zones with odd switches: negative DST, half-hour DST, midnight switches, 2-hour DST, Ramadan. */
export const ODD_ZONES = [
  'Europe/Dublin', 'Australia/Lord_Howe', 'America/Santiago', 'Pacific/Chatham', 'Asia/Tehran', 'Africa/Casablanca',
  'Antarctica/Troll', 'America/Havana', 'Asia/Beirut', 'Africa/Cairo', 'America/Asuncion', 'America/Nuuk',
  'America/Scoresbysund', 'Asia/Gaza', 'Asia/Jerusalem', 'Europe/Chisinau', 'Pacific/Norfolk', 'Antarctica/Macquarie',
  'America/Miquelon', 'Australia/Sydney', 'America/St_Johns', 'Europe/London', 'America/New_York', 'UTC',
];

function value(r: Rand, lo: number, hi: number, fraction: boolean): string {
  let v = String(int(r, lo, hi));
  if (r() < 0.5 && v.length < 2) v = `0${v}`;
  if (fraction && r() < 0.4) v += `.${String(int(r, 0, 999)).slice(0, int(r, 1, 3))}`;
  return v;
}

function component(r: Rand, lo: number, hi: number, fraction = false): string {
  if (r() < 0.15) return '*';
  const v = () => value(r, lo, hi, fraction);
  const step = (most: number) => value(r, 1, Math.max(1, most), fraction);
  const one = () => {
    const k = r();
    if (k < 0.4) return v();
    if (k < 0.6) return `${v()}..${v()}`;
    if (k < 0.85) return `${v()}/${step(Math.floor((hi - lo) / 2))}`;
    return `${v()}..${v()}/${step(Math.floor((hi - lo) / 3))}`;
  };
  return Array.from({ length: r() < 0.7 ? 1 : int(r, 2, 5) }, one).join(',');
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun', 'monday', 'TUESDAY', 'Wednesday', 'thursday', 'Friday', 'saturday', 'Sunday'];
const SHORTHANDS = ['minutely', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'quarterly', 'semiannually', 'annually', 'semi-annually', 'bi-annually', 'biannually', 'anually'];

export function hardExpression(r: Rand): string {
  if (r() < 0.05) return pick(r, SHORTHANDS) + (r() < 0.3 ? ` ${pick(r, ODD_ZONES)}` : '');
  const parts: string[] = [];
  if (r() < 0.4) {
    const day = () => {
      const a = int(r, 0, 6);
      const name = WEEKDAYS[a + (r() < 0.3 ? 7 : 0)]!;
      return r() < 0.5 ? `${name}${r() < 0.8 ? '..' : '-'}${WEEKDAYS[Math.min(6, a + int(r, 0, 4))]}` : name;
    };
    parts.push(Array.from({ length: int(r, 1, 3) }, day).join(','));
  }
  const d = r();
  if (d < 0.35) parts.push(`${r() < 0.5 ? '*' : component(r, 2025, 2035)}-${component(r, 1, 12)}-${component(r, 1, 31)}`);
  else if (d < 0.55) parts.push(`${r() < 0.7 ? '*' : component(r, 2025, 2035)}-${component(r, 1, 12)}~${component(r, 1, 28)}`);
  else if (d < 0.65) parts.push(`${component(r, 1, 12)}-${component(r, 1, 31)}`);
  else if (d < 0.7) parts.push(`${component(r, 1, 12)}~${component(r, 1, 10)}`);
  if (parts.length === 0 || r() < 0.8) parts.push(`${component(r, 0, 23)}:${component(r, 0, 59)}${r() < 0.5 ? '' : `:${component(r, 0, 59, true)}`}`);
  if (r() < 0.2) parts.push(r() < 0.3 ? 'UTC' : pick(r, ODD_ZONES));
  return parts.join(' ');
}

/** A monitor's zone for the hard run: mostly an odd one, else any of the zone database. */
export function hardZone(r: Rand): string {
  return r() < 0.6 ? pick(r, ODD_ZONES) : pick(r, Intl.supportedValuesOf('timeZone'));
}
