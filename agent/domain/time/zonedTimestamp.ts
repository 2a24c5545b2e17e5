/*
 * Dates and times with a zone as clients send them ("2026-03-08T06:40:00Z",
 * "2026-03-08T07:40+01:00"), read strictly: JavaScript's Date.parse rolls an impossible date over
 * (2030-02-30 becomes March 2nd), so every part is checked before it is believed. Pure.
 */

const ZONED = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2}):(\d{2}))$/i;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The instant `text` names: an ISO 8601 date and time with seconds optional, a fraction
 * optional, and Z or an offset. Null when it is not such a text, or names a day, hour, minute,
 * second or offset that does not exist (February 30th, 24:00, 10:60, +25:00).
 */
export function parseZonedTimestamp(text: string): number | null {
  const match = ZONED.exec(text.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1, 6).map(Number);
  const second = match[6] === undefined ? 0 : Number(match[6]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (match[9] !== undefined && (Number(match[9]) > 23 || Number(match[10]) > 59)) return null;
  const at = Date.parse(text.trim());
  return Number.isNaN(at) ? null : at;
}
