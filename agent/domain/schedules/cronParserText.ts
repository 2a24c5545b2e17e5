/*
 * A cron line as cron-parser can read it. cron sets one bit per value, so a value a list names
 * twice is that value once: Sunday as 0 and 7 (`0,7`, `6-7,0-1`), a value inside a range beside
 * it (`0-30,15`, `*,5`), a name and its number (`1,mon`). cron-parser refuses them as duplicates,
 * so such a field is handed to it as the list of its values. The line itself is kept as written
 * (stored, compared with its crontab, read for cron's `*` rules); only cron-parser sees this.
 */

const NAMES: Record<number, readonly string[]> = {
  3: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  4: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
};
const RANGES: ReadonlyArray<[number, number]> = [[0, 59], [0, 23], [1, 31], [1, 12], [0, 7]];

/** The values of one item of a list (`5`, `1-5`, `*\/15`, `mon-fri/2`); null for what is not plain (L, #, ?, W, a mistake). */
function itemValues(item: string, field: number): number[] | null {
  const [min, max] = RANGES[field]!;
  const match = /^(\*|[a-z0-9]+)(?:-([a-z0-9]+))?(?:\/(\d+))?$/i.exec(item);
  if (!match) return null;
  const value = (text: string): number | null => {
    if (/^\d+$/.test(text)) return Number(text);
    const index = NAMES[field]?.indexOf(text.toLowerCase()) ?? -1;
    return index < 0 ? null : index + min;
  };
  const from = match[1] === '*' ? min : value(match[1]!);
  // A step after a single value runs to the field's end, as cron-parser reads it.
  const to = match[1] === '*' ? max : match[2] !== undefined ? value(match[2]) : match[3] !== undefined ? max : from;
  const step = match[3] === undefined ? 1 : Number(match[3]);
  if (from === null || to === null || step < 1 || from < min || to > max || from > to || (match[1] === '*' && match[2] !== undefined)) return null;
  const values: number[] = [];
  for (let v = from; v <= to; v += step) values.push(field === 4 ? v % 7 : v);
  return values;
}

/** `schedule` (five fields) with each list that names a value twice written as its values; unchanged otherwise. */
export function parserText(schedule: string): string {
  return rewritten(schedule, false);
}

/** parserText, and such a list that names every value written `*`: for words ("every minute", not "at * and 5 minutes"). */
export function wordsText(schedule: string): string {
  return rewritten(schedule, true);
}

function rewritten(schedule: string, everyAsStar: boolean): string {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5 || !schedule.includes(',')) return schedule;
  let changed = false;
  const out = fields.map((field, index) => {
    if (!field.includes(',')) return field;
    const lists = field.split(',').map((item) => itemValues(item, index));
    if (lists.some((values) => values === null)) return field;
    const all = lists.flatMap((values) => values!);
    const unique = [...new Set(all)].sort((a, b) => a - b);
    if (unique.length === all.length) return field;
    changed = true;
    const [min, max] = RANGES[index]!;
    return everyAsStar && unique.length === (index === 4 ? 7 : max - min + 1) ? '*' : runs(unique);
  });
  return changed ? out.join(' ') : schedule;
}

/** Ascending values as a list of ranges: 0,1,2,3,7 → "0-3,7". */
function runs(values: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < values.length; ) {
    let j = i;
    while (j + 1 < values.length && values[j + 1] === values[j]! + 1) j++;
    parts.push(j > i ? `${values[i]}-${values[j]}` : String(values[i]));
    i = j + 1;
  }
  return parts.join(',');
}
