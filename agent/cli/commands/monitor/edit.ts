import { parseArgs } from '../../parseOptions';
import type { MonitorChanges } from '../../../client/connection/api';
import { checkSchedule } from '../../../domain/schedules';
import { resolveTimeZone } from '../../../domain/time/timeZones';
import { UsageError, withoutControlCharacters } from '../../command';
import { suggestSchedule } from '../../scheduleSuggestion';
import { alertAfterOption, apiFromEnv, COMMON_OPTIONS, findMonitor, graceOption, maxRuntimeOption, printMonitor, tagsOption } from './shared';
import { printable } from '../../crontab/table';

/** `cronbeat monitor edit ID|NAME [--name N] [--schedule S] [--timezone Z] [--grace MIN] [--max-runtime MIN|none] [--alert-after N] [--project N|none] [--tags a,b] [--json]`; --duration is an old name of --grace. */
export async function editMonitor(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...COMMON_OPTIONS,
      name: { type: 'string' },
      schedule: { type: 'string' },
      timezone: { type: 'string' },
      grace: { type: 'string' },
      // The old name of --grace, still taken; help no longer lists it.
      duration: { type: 'string' },
      project: { type: 'string' },
      tags: { type: 'string' },
      'alert-after': { type: 'string' },
      'max-runtime': { type: 'string' },
    },
  });
  if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}" (quote a schedule: --schedule "0 3 * * *").`);
  const changes: MonitorChanges = {};
  if (values.name !== undefined) changes.name = withoutControlCharacters('--name', values.name);
  if (values.schedule !== undefined) changes.schedule = values.schedule;
  const notes: string[] = [];
  if (values.timezone !== undefined) {
    const answer = resolveTimeZone(values.timezone);
    if (answer.zone === undefined) throw new UsageError(`--timezone: ${answer.error}`);
    changes.timezone = answer.zone;
    if (answer.note) notes.push(answer.note);
  }
  if (values.schedule !== undefined) {
    const suggestion = suggestSchedule(values.schedule);
    if (suggestion !== null) throw new UsageError(`--schedule: ${checkSchedule(values.schedule).error} Did you mean --schedule "${suggestion}"?`);
  }
  if (values.grace !== undefined && values.duration !== undefined) throw new UsageError('Give --grace once (--duration is its old name).');
  const grace = values.grace ?? values.duration;
  if (grace !== undefined) changes.duration = graceOption(grace);
  // The whole list, as the dashboard sets it: "" takes every tag off.
  if (values.tags !== undefined) changes.tags = tagsOption(values.tags);
  if (values.project !== undefined) {
    if (values.project !== 'none' && !/^[1-9]\d{0,15}$/.test(values.project)) {
      throw new UsageError(`--project must be a project id or "none", not "${values.project}".`);
    }
    changes.project_id = values.project === 'none' ? null : Number(values.project);
  }
  const alertAfter = values['alert-after'] === undefined ? undefined : alertAfterOption(values['alert-after']);
  const maxRuntime = values['max-runtime'] === undefined ? undefined : maxRuntimeOption(values['max-runtime'], true);
  if (Object.keys(changes).length === 0 && alertAfter === undefined && maxRuntime === undefined) {
    throw new UsageError('Say what to change: --name, --schedule, --timezone, --grace, --max-runtime, --alert-after, --project or --tags.');
  }
  const api = apiFromEnv(values.url);
  const id = (await findMonitor(api, positionals[0])).id;
  let monitor = Object.keys(changes).length > 0 ? await api.editMonitor(id, changes) : null;
  // Its own request (as the API keeps the spec's monitor body as it is).
  if (maxRuntime !== undefined) monitor = await api.setMaxRuntime(id, maxRuntime);
  if (alertAfter !== undefined) monitor = await api.setAlertAfter(id, alertAfter);
  if (monitor === null) throw new UsageError('Say what to change.');
  for (const note of notes) console.error(note);
  if (values.json) printMonitor(monitor, true);
  else {
    console.log(printable(`Saved "${monitor.name}"; its token and pulse URL are unchanged.`));
    printMonitor(monitor, false);
  }
  return 0;
}
