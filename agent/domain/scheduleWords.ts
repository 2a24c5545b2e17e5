import cronstrue from 'cronstrue';
import { checkSchedule } from './scheduleCheck';

/**
 * A schedule in words: "At 02:00, every day, Europe/Paris" (the zone only when given). Returns
 * null when the expression cannot be described (the caller then shows the raw expression).
 * One function for the dashboard and for alerts.
 */
export function scheduleInWords(input: string, timezone?: string): string | null {
  const { schedule } = checkSchedule(input);
  if (schedule === undefined) return null;
  try {
    let words = cronstrue.toString(schedule, { use24HourTimeFormat: true, throwExceptionOnParseError: true });
    const [minute, hour, dayOfMonth, month, dayOfWeek] = schedule.trim().split(/\s+/);
    // "At 02:00" alone reads as incomplete; cronstrue already says "every hour" and the like itself.
    const fixedTime = /^\d+$/.test(minute!) && /^\d+$/.test(hour!);
    if (fixedTime && dayOfMonth === '*' && month === '*' && dayOfWeek === '*') words += ', every day';
    return timezone ? `${words}, ${timezone}` : words;
  } catch {
    return null;
  }
}
