import { parseArgs } from '../../parseOptions';
import { UsageError } from '../../command';
import type { MaintenanceWindowResource } from '../../../contract/maintenanceWindows';
import { apiFromEnv, COMMON_OPTIONS, findMonitor, printMonitor, shortTime } from './shared';

/** `cronbeat monitor show ID|NAME [--json]`: with the maintenance under way over it, as its dashboard page says it. */
export async function showMonitor(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: COMMON_OPTIONS });
  if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}".`);
  const api = apiFromEnv(values.url);
  const monitor = await findMonitor(api, positionals[0]);
  // An agent older than maintenance windows answers 404 there: the monitor is shown all the same.
  const windows = values.json ? [] : await api.maintenanceWindows({ monitor_id: String(monitor.id), active: 'true' }).catch(() => []);
  printMonitor(monitor, values.json, maintenanceWords(windows));
  return 0;
}

/** "until Sat 28 Nov 14:00 (db upgrade): no alerts; pulses are still recorded", for the windows under way; undefined when none. */
function maintenanceWords(active: MaintenanceWindowResource[]): string | undefined {
  const ends = active.filter((w) => w.active_until !== null).sort((a, b) => Date.parse(b.active_until!) - Date.parse(a.active_until!));
  const last = ends[0];
  if (!last) return undefined;
  const names = active.map((w) => w.name).filter((name): name is string => Boolean(name));
  return `until ${shortTime(last.active_until)}${names.length > 0 ? ` (${names.join(', ')})` : ''}: no alerts; pulses are still recorded, then it waits for its next run`;
}
