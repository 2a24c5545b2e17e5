import { describeDuration } from '../../../agent/domain/time/durations';

/**
 * Display helpers. Times show in the viewer's zone, 24-hour whatever the locale (one time format
 * everywhere: schedules, quiet hours and the CLI write 18:00); `utcTitle` gives the UTC text for hovering.
 */

const localFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' });
const localTimeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'short', hourCycle: 'h23' });

function isSameDay(a: Date, b: Date): boolean {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

/** "21 Nov 2026, 15:03", or "Today, 15:03" for a time today. */
export function formatLocal(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  return isSameDay(date, now) ? `Today, ${localTimeOnly.format(date)}` : localFormat.format(date);
}

/** "2026-11-21 15:03:05 UTC" */
export function utcTitle(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** "in 4 min", "2 h ago", "just now". */
export function formatRelative(iso: string, now = Date.now()): string {
  const diff = new Date(iso).getTime() - now;
  const abs = Math.abs(diff);
  if (Number.isNaN(diff)) return '';
  if (abs < 45_000) return diff < 0 ? 'just now' : 'in a moment';
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'min'],
  ];
  // A unit from where the smaller one would round up to it: 59.6 min is "1 h", never "60 min".
  const [size, unit] = units.find(([ms], i) => abs >= ms - (units[i + 1]?.[0] ?? 0) / 2) ?? units[2]!;
  const count = Math.round(abs / size);
  return diff < 0 ? `${count} ${unit} ago` : `in ${count} ${unit}`;
}

/** A duration in the words alerts use too ("850 ms", "4.3 s", "2 h 10 min", "1 day 3 h"); a dash when there is none. */
export function formatDuration(ms: number | null | undefined): string {
  return ms === null || ms === undefined || !Number.isFinite(ms) ? '—' : describeDuration(ms);
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

const sentenceDate = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const sentenceDateWithYear = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** A moment inside a sentence, in the viewer's zone: "23:32 today", "Sun 22 Nov, 23:32", "3 Feb 2025, 10:00". */
export function formatInSentence(ms: number, now = new Date()): string {
  const date = new Date(ms);
  if (isSameDay(date, now)) return `${localTimeOnly.format(date)} today`;
  return (date.getFullYear() === now.getFullYear() ? sentenceDate : sentenceDateWithYear).format(date);
}
