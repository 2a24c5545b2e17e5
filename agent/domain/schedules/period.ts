import type { ScheduleCheck } from './types';

/*
 * A period, "@every 90m" (the form Go's cron libraries use; units s, m, h and d, combined as
 * in 1h30m): no clock time, a run is expected one period after the last one. For a systemd
 * timer's OnUnitActiveSec=/OnBootSec= and for a service's heartbeat.
 */

const UNIT_SECONDS: Record<string, number> = { d: 86_400, h: 3_600, m: 60, s: 1 };
const UNIT_WORDS: Record<string, string> = { d: 'day', h: 'hour', m: 'minute', s: 'second' };
/** Ten years: longer is a mistake, and keeps every sum far inside a safe integer. */
const MAX_PERIOD_SECONDS = 3_650 * 86_400;
const EXAMPLE = 'such as "@every 90m", "@every 1h30m" or "@every 2d"';

/** The stored form of a period ("@every 1h30m"), or why it is not one. */
export function checkPeriod(input: string): ScheduleCheck {
  const match = /^@every(?:\s+(.*))?$/i.exec(input.trim());
  const body = (match?.[1] ?? '').replace(/\s+/g, '').toLowerCase();
  if (body === '') return { error: `A period says how long between runs, ${EXAMPLE}.` };
  if (!new RegExp(`^(${AMOUNT.source}[dhms])+$`).test(body)) {
    return { error: `"${input.trim()}" is not a period: write a number and a unit (s, m, h or d), ${EXAMPLE}.` };
  }
  const exact = exactSeconds(body);
  const seconds = Math.floor(exact);
  if (exact === 0) return { error: 'A period of 0 never comes: write at least @every 1s.' };
  if (seconds === 0) return { error: 'A period is at least a second: write at least @every 1s.' };
  if (seconds > MAX_PERIOD_SECONDS) return { error: 'A period is at most 3650 days (ten years).' };
  // A decimal ("1.5h") is kept in whole units, what is below a second dropped as robfig/cron drops it.
  if (/\./.test(body)) return { schedule: `@every ${wholeUnits(seconds)}` };
  return { schedule: `@every ${unitAmounts(body).map(([amount, unit]) => `${amount}${unit}`).join('')}` };
}

/** An amount as Go's time.ParseDuration writes one: digits, a decimal point, or both ("1.5", ".5", "1."). */
const AMOUNT = /(?:\d+\.?\d*|\.\d+)/;

/** The period in seconds, decimals included (a millionth added for 0.1-style binary error before any rounding down). */
function exactSeconds(body: string): number {
  let total = 0;
  for (const [, amount, unit] of body.matchAll(new RegExp(`(${AMOUNT.source})([dhms])`, 'g'))) total += Number(amount) * UNIT_SECONDS[unit!]!;
  return Number.isInteger(total) ? total : Math.floor(total * 1e6 + 1e-3) / 1e6;
}

/** Whole seconds in days, hours, minutes and seconds, largest first: 5400 → "1h30m". */
function wholeUnits(seconds: number): string {
  let rest = seconds;
  let text = '';
  for (const [unit, size] of Object.entries(UNIT_SECONDS)) {
    if (rest >= size) {
      text += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  return text;
}

/** Each unit's amount, largest unit first, a unit given twice added up as Go's time.ParseDuration does ("1h1h" is 2h). */
function unitAmounts(body: string): [number, string][] {
  const amounts = new Map<string, number>();
  for (const [, amount, unit] of body.matchAll(/(\d+)([dhms])/g)) amounts.set(unit!, (amounts.get(unit!) ?? 0) + Number(amount));
  return ['d', 'h', 'm', 's'].filter((unit) => amounts.get(unit)).map((unit) => [amounts.get(unit)!, unit]);
}

function periodSeconds(body: string): number {
  let total = 0;
  for (const [, amount, unit] of body.matchAll(/(\d+)([dhms])/g)) total += Number(amount) * UNIT_SECONDS[unit!]!;
  return total;
}

/** The period of a stored "@every …" in milliseconds. */
export function periodMs(schedule: string): number {
  return periodSeconds(schedule.slice('@every '.length)) * 1000;
}

/** "every 90 minutes, counted from the last run". */
export function periodWords(schedule: string): string {
  const parts = unitAmounts(schedule.slice('@every '.length)).map(([amount, unit]) => `${amount} ${UNIT_WORDS[unit]!}${amount === 1 ? '' : 's'}`);
  const words = parts.length === 1 && parts[0]!.startsWith('1 ') ? parts[0]!.slice(2) : parts.join(' ');
  return `every ${words}, counted from the last run`;
}
