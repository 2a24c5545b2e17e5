import cronstrue from 'cronstrue';
import { checkCron } from './cronCheck';
import { walksAnyStretch } from './cronDays';
import { wordsText } from './cronParserText';

/*
 * A schedule as a person says it, for the dashboard's run line, the CLI and alert text:
 * "every 5 minutes", "at 03:00 Europe/Paris", "at 02:30 Europe/Paris, Monday through Friday".
 * Lower case, so it reads inside a sentence; a caller that starts a sentence with it uses
 * capitalised().
 */

/** Whether the schedule's runs are the same whatever the zone: only its minute field says anything. */
function zoneFree(fields: string[]): boolean {
  return fields.slice(1).every((field) => field === '*');
}

/**
 * `schedule` (five fields or a macro) in words, with `timezone` after its clock time when the
 * zone changes when it runs. Null when the schedule is not one cron can run (the caller shows
 * the expression as typed).
 */
export function cronWords(schedule: string, timezone?: string): string | null {
  const checked = checkCron(schedule);
  if (checked.schedule === undefined) return null;
  let words: string;
  try {
    words = walksAnyStretch(checked.schedule) ? described(wordsText(checked.schedule)) : bothDaysWords(checked.schedule);
  } catch {
    return null;
  }
  words = words.charAt(0).toLowerCase() + words.slice(1);
  if (!timezone || zoneFree(checked.schedule.split(/\s+/))) return words;
  // The zone goes right after the part that names a clock time: "at 03:00 Europe/Paris, only on Sunday".
  const parts = words.split(', ');
  const timed = parts.findIndex((part) => /\d\d:\d\d/.test(part));
  if (timed === -1) return `${words} (${timezone})`;
  parts[timed] = `${parts[timed]} ${timezone}`;
  return parts.join(', ');
}

function described(schedule: string): string {
  return cronstrue.toString(schedule, { use24HourTimeFormat: true, throwExceptionOnParseError: true, verbose: false });
}

/**
 * A line whose day field starts with `*` beside a day of week, which cron runs only on days that
 * match both (`0 0 *\/2 * 1`: odd days that are Mondays), where cronstrue's "…, and on Monday" says either.
 */
function bothDaysWords(schedule: string): string {
  const [minute, hour, day, month, weekday] = wordsText(schedule).split(' ');
  const time = described(`${minute} ${hour} * * *`);
  const weekdays = described(`${minute} ${hour} * * ${weekday}`).slice(time.length).replace(/^, (only on )?/, '').replace(/ and /g, ' or ');
  return `${described(`${minute} ${hour} ${day} ${month} *`)}, and only if that day is also ${weekdays}`;
}
