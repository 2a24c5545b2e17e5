import { parseArgs } from 'node:util';
import { toApiTimestamp } from '../../../domain/timestamps';
import { UsageError } from '../../command';
import { apiFromEnv, COMMON_OPTIONS, findMonitor, printMonitor, shortTime } from './shared';

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "90m", "1h", "2d" as milliseconds; a usage error for anything else. */
export function parseFor(raw: string): number {
  const match = /^(\d{1,6})([mhd])$/.exec(raw);
  if (!match || Number(match[1]) === 0) throw new UsageError(`--for must be a length such as 30m, 1h or 2d, not "${raw}".`);
  return Number(match[1]) * UNIT_MS[match[2]];
}

/** When a snooze given as --until or --for ends, as an API timestamp; null for a pause until resumed. */
function snoozeEnd(until: string | undefined, length: string | undefined, now: number): string | null {
  if (until !== undefined && length !== undefined) throw new UsageError('Give --until or --for, not both.');
  if (length !== undefined) return toApiTimestamp(now + parseFor(length));
  if (until === undefined) return null;
  // The agent checks the time itself (a zone is required); this only catches what is no date at all.
  if (Number.isNaN(Date.parse(until))) throw new UsageError(`--until must be a date and time such as 2026-03-08T06:40:00Z, not "${until}".`);
  return until;
}

/** `cronbeat monitor pause ID|NAME [--until TIME | --for LENGTH] [--json]` */
export async function pauseMonitor(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...COMMON_OPTIONS, until: { type: 'string' }, for: { type: 'string' } },
  });
  if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}".`);
  const until = snoozeEnd(values.until, values.for, Date.now());
  const api = apiFromEnv(values.url);
  const monitor = await api.pauseMonitor((await findMonitor(api, positionals[0])).id, until);
  if (values.json) printMonitor(monitor, true);
  else console.log(`Paused "${monitor.name}" ${monitor.paused_until ? `until ${shortTime(monitor.paused_until)}` : 'until you resume it'}.`);
  return 0;
}
