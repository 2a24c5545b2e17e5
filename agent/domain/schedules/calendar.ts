import { calendarNextUsec } from './calendarNext';
import { parseCalendar, type CalendarSpec } from './calendarSpec';
import { LibcClock } from './libcTime';

/*
 * A monitor's calendar schedule: one systemd calendar event a line, as a timer with several
 * OnCalendar= lines; a run is expected whenever any of them elapses.
 */

export type CalendarCheck = { lines: string[]; specs: CalendarSpec[]; error?: undefined } | { lines?: undefined; specs?: undefined; error: string };

/**
 * The lines of a calendar schedule (trimmed, blank ones dropped) read, or the first refusal with
 * its line. `stored`: a monitor's schedule, read as parseCalendar reads one.
 */
export function checkCalendar(text: string, stored = false): CalendarCheck {
  // A unit's value is trimmed as systemd's unit reader trims it; inside, the line is read as written.
  const written = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (written.length === 0) return { error: 'Enter a calendar event, such as "*-*-* 02:30:00" or "Mon..Fri 09:00".' };
  const lines: string[] = [];
  const specs: CalendarSpec[] = [];
  for (const [index, line] of written.entries()) {
    // Kept with single spaces: where systemd takes more it skips them all, so the meaning is the same.
    const single = line.replace(/[ \t]+/g, ' ');
    const parsed = parseCalendar(line, stored);
    if (parsed.error !== undefined) {
      const where = written.length > 1 ? `Line ${index + 1} ("${line}"): ` : '';
      // Two spaces before the zone (or after a shorthand), or a tab anywhere: systemd refuses the line.
      const spacing = single !== line && parseCalendar(single).error === undefined;
      return { error: `${where}${spacing ? `systemd takes one space here, not two nor a tab: write "${single}".` : parsed.error}` };
    }
    lines.push(single);
    specs.push(parsed.spec);
  }
  return { lines, specs };
}

const USEC_PER_MS = 1_000;

/**
 * The next `limit` runs strictly after `afterMs` (milliseconds), earliest first: the union of
 * every line's elapses, each line walked as systemd walks it (one clock a line, as
 * `systemd-analyze calendar --iterations` keeps one process).
 */
export function calendarNextRuns(specs: readonly CalendarSpec[], zone: string, afterMs: number, limit: number): number[] {
  const runs = new Set<number>();
  for (const spec of specs) {
    const clock = new LibcClock(zone);
    let after = afterMs * USEC_PER_MS;
    for (let i = 0; i < limit; i++) {
      const next = calendarNextUsec(spec, zone, after, clock);
      if (next === null) break;
      // Milliseconds are what Cronbeat keeps; a run inside a millisecond counts at its end.
      runs.add(Math.ceil(next / USEC_PER_MS));
      after = next;
    }
  }
  return [...runs].sort((a, b) => a - b).slice(0, limit);
}
