import { checkSchedule, CRON_MACROS } from '../domain/schedules';
import { closestTo } from './didYouMean';

/*
 * A schedule close to one cron refuses, for "did you mean …": a misspelt macro (@dayly), day
 * or month names (mon-fry), a seconds field from Quartz or systemd habits, or a few plain
 * English phrases. Only a suggestion cron accepts is made.
 */

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const FULL_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const FULL_MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** A name token as cron's three letters: "fry" → "fri", "monday" → "mon"; unchanged when nothing is close. */
function fixName(token: string, short: string[], full: string[]): string {
  const [closest] = closestTo(token, [...short, ...full], 1);
  return closest === undefined ? token : closest.slice(0, 3);
}

function english(input: string): string | null {
  const text = input.trim().toLowerCase();
  const every = /^every (\d{1,2}) minutes?$/.exec(text);
  if (every && Number(every[1]) >= 1 && Number(every[1]) <= 59) return `*/${Number(every[1])} * * * *`;
  if (text === 'every minute') return '* * * * *';
  if (text === 'every hour' || text === 'hourly') return '@hourly';
  if (text === 'every day' || text === 'daily' || text === 'nightly') return '@daily';
  if (text === 'every week' || text === 'weekly') return '@weekly';
  if (text === 'every month' || text === 'monthly') return '@monthly';
  return null;
}

/** A schedule cron accepts that `input` probably meant; null when `input` is fine or nothing is close. */
export function suggestSchedule(input: string): string | null {
  if (checkSchedule(input).schedule !== undefined) return null;
  const trimmed = input.trim();
  const candidates: string[] = [];
  const plain = english(trimmed);
  if (plain) candidates.push(plain);
  if (trimmed.startsWith('@')) candidates.push(...closestTo(trimmed.toLowerCase(), Object.keys(CRON_MACROS), 1));
  const fields = trimmed.split(/\s+/);
  if (fields.length === 6) candidates.push(fields.slice(1).join(' '), fields.slice(0, 5).join(' '));
  if (fields.length === 5) {
    const names = (field: string, short: string[], full: string[]) =>
      field.replace(/[A-Za-z]+/g, (token) => (short.includes(token.toLowerCase()) ? token : fixName(token, short, full)));
    candidates.push([...fields.slice(0, 3), names(fields[3]!, MONTH_NAMES, FULL_MONTHS), names(fields[4]!, DAY_NAMES, FULL_DAYS)].join(' '));
  }
  return candidates.find((candidate) => checkSchedule(candidate).schedule !== undefined) ?? null;
}
