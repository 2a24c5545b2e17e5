import { parseArgs } from '../../parseOptions';
import { checkSchedule } from '../../../domain/schedules';
import { defaultGraceMinutes } from '../../../domain/monitors/dueTime';
import { serverTag } from '../../../domain/monitors/ownLine';
import { resolveTimeZone } from '../../../domain/time/timeZones';
import { UsageError, withoutControlCharacters } from '../../command';
import { machineZone } from '../../machineZone';
import { suggestSchedule } from '../../scheduleSuggestion';
import { howToRun } from './howToRun';
import { alertAfterOption, apiFromEnv, COMMON_OPTIONS, graceOption, maxRuntimeOption, printMonitor, tagsOption } from './shared';
import { printable } from '../../crontab/table';

/**
 * `cronbeat monitor create NAME --schedule S [--timezone Z] [--grace MIN] [--max-runtime MIN] [--alert-after N] [--server ID] [--tags a,b] [--json]`:
 * the options of `cronbeat run --name`, read the same way (the machine's zone, the schedule's own
 * period as grace), for a monitor made before its job's line is written.
 */
export async function createMonitor(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...COMMON_OPTIONS,
      name: { type: 'string' },
      schedule: { type: 'string' },
      timezone: { type: 'string' },
      grace: { type: 'string' },
      'max-runtime': { type: 'string' },
      'alert-after': { type: 'string' },
      server: { type: 'string' },
      tags: { type: 'string' },
    },
  });
  if (positionals.length > 0 && values.name !== undefined) throw new UsageError(`Give the name once: "${positionals[0]}" or --name.`);
  if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}" (quote a name or schedule with spaces: "nightly backup").`);
  const name = withoutControlCharacters('the name', values.name ?? positionals[0]);
  if (name === undefined || name.trim() === '') throw new UsageError('Say the monitor\'s name: cronbeat monitor create NAME --schedule "0 3 * * *".');
  if (values.schedule === undefined) throw new UsageError('Say when the job runs: --schedule "0 3 * * *" (a cron expression, or @daily).');
  const checked = checkSchedule(values.schedule);
  if (checked.schedule === undefined) {
    const suggestion = suggestSchedule(values.schedule);
    throw new UsageError(`--schedule: ${checked.error}${suggestion === null ? '' : ` Did you mean --schedule "${suggestion}"?`}`);
  }
  const notes: string[] = [];
  let timezone = machineZone();
  if (values.timezone !== undefined) {
    const answer = resolveTimeZone(values.timezone);
    if (answer.zone === undefined) throw new UsageError(`--timezone: ${answer.error}`);
    timezone = answer.zone;
    if (answer.note) notes.push(answer.note);
  }
  const duration = values.grace === undefined ? defaultGraceMinutes(checked.schedule, Date.now()) : graceOption(values.grace);
  const maxRuntime = values['max-runtime'] === undefined ? undefined : maxRuntimeOption(values['max-runtime']);
  const alertAfter = values['alert-after'] === undefined ? undefined : alertAfterOption(values['alert-after']);
  const tags = values.tags === undefined ? [] : tagsOption(values.tags);
  if (values.server !== undefined) {
    const tag = serverTag(withoutControlCharacters('--server', values.server));
    if (tag === undefined) throw new UsageError(`--server must be a server identifier (letters, digits, "_", ".", ":" and "-"), not "${values.server}".`);
    tags.push(tag);
  }
  const api = apiFromEnv(values.url);
  const created = await api.createMonitor({ name: name.trim(), schedule: checked.schedule, timezone, duration, ...(tags.length > 0 ? { tags } : {}) });
  // Their own requests (as the API keeps the spec's monitor body as it is).
  if (maxRuntime !== undefined) await api.setMaxRuntime(created.id, maxRuntime);
  const monitor = alertAfter === undefined ? await api.monitor(created.id) : await api.setAlertAfter(created.id, alertAfter);
  for (const note of notes) console.error(note);
  if (values.json) {
    printMonitor(monitor, true);
    return 0;
  }
  console.log(printable(`Created "${monitor.name}".`));
  printMonitor(monitor, false);
  const token = monitor.token ?? created.token;
  const args = ['cronbeat', 'run', token, ...(values.url === undefined ? [] : ['--url', values.url]), '--', '/path/to/your/job.sh'];
  console.log('');
  // Each line to paste stays one line: a line break in the agent's token would start a crontab line, or a unit directive, of its own.
  for (const line of howToRun(checked.schedule, timezone, machineZone(), args)) console.log(printable(line));
  return 0;
}
