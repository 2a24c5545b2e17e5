import { parseArgs } from '../../parseOptions';
import { nextClockTime, parseClockTime, wallClockInstant } from '../../../domain/schedules/clockTime';
import { toApiTimestamp } from '../../../domain/time/apiTimestamps';
import { parseZonedTimestamp } from '../../../domain/time/zonedTimestamp';
import { UsageError } from '../../command';
import { machineZone } from '../../machineZone';
import { apiFromEnv, COMMON_OPTIONS, findMonitor, printMonitor, shortTime } from './shared';
import { printable } from '../../crontab/table';

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "90m", "1h", "2d" as milliseconds; a usage error for anything else. */
export function parseFor(raw: string): number {
  const match = /^(\d{1,6})([mhd])$/.exec(raw);
  if (!match || Number(match[1]) === 0) throw new UsageError(`--for must be a length such as 30m, 1h or 2d, not "${raw}".`);
  return Number(match[1]) * UNIT_MS[match[2]];
}

export interface SnoozeEnd {
  /** The API's `until`: a timestamp with its zone, or null for a pause until resumed. */
  until: string | null;
  /** What was assumed, for the user: the zone of a time given without one, and a day moved to tomorrow. */
  note?: string;
}

/**
 * When a snooze given as --until or --for ends. A time of day ("18:00") or a date and time
 * without a zone ("2026-03-08 18:00") is read on this machine's clock (`zone`); a time of day
 * already past today means tomorrow.
 */
export function snoozeEnd(until: string | undefined, length: string | undefined, now: number, zone: string): SnoozeEnd {
  if (until !== undefined && length !== undefined) throw new UsageError('Give --until or --for, not both.');
  if (length !== undefined) return { until: toApiTimestamp(now + parseFor(length)) };
  if (until === undefined) return { until: null };
  // With a zone (Z or an offset) the agent checks the time itself.
  if (/(Z|[+-]\d{2}:\d{2})$/i.test(until.trim())) {
    if (parseZonedTimestamp(until) === null) throw new UsageError(`--until ${until.trim()} is not a date and time that exists.`);
    return { until: until.trim() };
  }
  const noZone = `--until ${until.trim()} has no zone: it is taken in this machine's zone, ${zone}.`;
  const clock = parseClockTime(until);
  if (clock !== null) {
    const next = nextClockTime(clock, zone, now);
    if (next === null) throw new UsageError(`This machine's zone, ${zone}, is not one the time zone data knows: give --until with a zone.`);
    const passed = next.tomorrow ? ` ${clock} has passed today, so it means tomorrow.` : '';
    return { until: toApiTimestamp(next.at), note: `${noZone}${passed}` };
  }
  const at = wallClockInstant(until, zone);
  if (at !== null) return { until: toApiTimestamp(at), note: noZone };
  // Shaped like a date and time, but not one (Feb 29 of a common year, Feb 30, 24:00): say so, as with a zone.
  if (/^\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(:\d{2})?$/.test(until.trim())) throw new UsageError(`--until ${until.trim()} is not a date and time that exists.`);
  throw new UsageError(
    `--until must be a time such as 18:00, a date and time such as "2026-03-08 18:00" (both on this machine's clock, ${zone}) or one with a zone such as 2026-03-08T06:40:00Z, not "${until}".`,
  );
}

/** `cronbeat monitor pause ID|NAME [--until TIME | --for LENGTH] [--json]` */
export async function pauseMonitor(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...COMMON_OPTIONS, until: { type: 'string' }, for: { type: 'string' } },
  });
  if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}".`);
  const zone = machineZone();
  const { until, note } = snoozeEnd(values.until, values.for, Date.now(), zone);
  const api = apiFromEnv(values.url);
  const monitor = await api.pauseMonitor((await findMonitor(api, positionals[0])).id, until);
  if (note) console.error(note);
  if (values.json) printMonitor(monitor, true);
  else console.log(printable(`Paused "${monitor.name}" ${monitor.paused_until ? `until ${shortTime(monitor.paused_until, zone)}` : 'until you resume it'}.`));
  return 0;
}
