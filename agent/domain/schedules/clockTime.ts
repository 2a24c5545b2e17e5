import { nextRunAfter } from './cronSchedule';

/*
 * Times of day as people type them: one format everywhere a person reads or types one
 * (quiet hours, `monitor pause --until 18:00`): 24-hour "HH:MM", typed with or without the
 * leading zero ("8:00" is "08:00").
 */

const CLOCK = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** "8:00" → "08:00", "18:05" → "18:05"; null when it is not a time of day (24:00, 8h, 8:5). */
export function parseClockTime(text: string): string | null {
  const match = CLOCK.exec(text.trim());
  return match ? `${match[1]!.padStart(2, '0')}:${match[2]}` : null;
}

/** The calendar day of `ms` in `timezone`, as "2026-03-08". */
export function dayIn(ms: number, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
}

/**
 * The next instant after `now` when the clock in `timezone` shows `hhmm` ("HH:MM"): today's,
 * or tomorrow's when today's has passed (`tomorrow` says which). On a day that skips that
 * time (spring forward) it is the first minute after the jump, as cron would run it. Null
 * when the zone is not known.
 */
export function nextClockTime(hhmm: string, timezone: string, now: number): { at: number; tomorrow: boolean } | null {
  const [hour, minute] = hhmm.split(':').map(Number);
  const at = nextRunAfter(`${minute} ${hour} * * *`, timezone, now);
  if (at === null) return null;
  return { at, tomorrow: dayIn(at, timezone) !== dayIn(now, timezone) };
}

/**
 * The instant a date and time without a zone ("2026-03-08 18:00" or "2026-03-08T18:00") names
 * in `timezone`: the first time after the day starts that its clock shows it. Null when it is
 * not such a text, names no such day, or the zone is not known.
 */
export function wallClockInstant(text: string, timezone: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{1,2}:\d{2})$/.exec(text.trim());
  const time = match ? parseClockTime(match[4]!) : null;
  if (!match || !time) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utcMidnight = Date.UTC(year, month - 1, day);
  if (new Date(utcMidnight).getUTCDate() !== day) return null;
  // Zones run from UTC−12 to UTC+14: the day's start is at most 14 h before its UTC midnight.
  const found = nextRunAfter(`${Number(time.slice(3))} ${Number(time.slice(0, 2))} ${day} ${month} *`, timezone, utcMidnight - 15 * 3_600_000);
  return found !== null && dayIn(found, timezone) === match.slice(1, 4).join('-') ? found : null;
}
