import { parseArgs } from 'node:util';
import type { MonitorChanges } from '../../../client/api';
import { UsageError } from '../../command';
import { apiFromEnv, COMMON_OPTIONS, findMonitor, printMonitor } from './shared';

/** `cronbeat monitor edit ID|NAME [--name N] [--schedule S] [--timezone Z] [--duration MIN] [--project N|none] [--json]` */
export async function editMonitor(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...COMMON_OPTIONS,
      name: { type: 'string' },
      schedule: { type: 'string' },
      timezone: { type: 'string' },
      duration: { type: 'string' },
      project: { type: 'string' },
    },
  });
  if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}" (quote a schedule: --schedule "0 3 * * *").`);
  const changes: MonitorChanges = {};
  if (values.name !== undefined) changes.name = values.name;
  if (values.schedule !== undefined) changes.schedule = values.schedule;
  if (values.timezone !== undefined) changes.timezone = values.timezone;
  if (values.duration !== undefined) {
    if (!/^\d{1,6}$/.test(values.duration)) throw new UsageError(`--duration must be whole minutes, not "${values.duration}".`);
    changes.duration = Number(values.duration);
  }
  if (values.project !== undefined) {
    if (values.project !== 'none' && !/^[1-9]\d{0,15}$/.test(values.project)) {
      throw new UsageError(`--project must be a project id or "none", not "${values.project}".`);
    }
    changes.project_id = values.project === 'none' ? null : Number(values.project);
  }
  if (Object.keys(changes).length === 0) {
    throw new UsageError('Say what to change: --name, --schedule, --timezone, --duration or --project.');
  }
  const api = apiFromEnv(values.url);
  const monitor = await api.editMonitor((await findMonitor(api, positionals[0])).id, changes);
  if (values.json) printMonitor(monitor, true);
  else {
    console.log(`Saved "${monitor.name}"; its token and pulse URL are unchanged.`);
    printMonitor(monitor, false);
  }
  return 0;
}
