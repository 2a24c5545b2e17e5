import { parseArgs } from '../parseOptions';
import type { MaintenanceWindowInput, MaintenanceWindowResource } from '../../contract/maintenanceWindows';
import { DEFAULT_BASE_URL } from '../../client/connection/baseUrl';
import { UsageError, type Command } from '../command';
import { didYouMean } from '../didYouMean';
import { machineZone } from '../machineZone';
import { printable } from '../crontab/table';
import { apiFromEnv, findMonitor, shortTime } from './monitor/shared';
import { snoozeEnd } from './monitor/pause';

const help = `Usage: cronbeat maintenance <add|list|remove> [options]

Maintenance windows: planned work during which the monitors a window covers raise no alert
(their pulses are still recorded). A run due in a window is not expected; when the window
ends, a monitor waits for its next run. A monitor that failed before the window stays failed.
The API token comes from CRONBEAT_API_TOKEN (make one with \`cronbeat token create\`).

  cronbeat maintenance add [--from T] (--until T | --for LEN) [--monitor ID|NAME]… [--tag TAG]…
                           [--name N]
      A one-off window, from now or --from, until --until or for --for.
  cronbeat maintenance add --schedule "0 2 * * 0" --timezone Z --duration MIN [--monitor …]
                           [--tag …] [--name N]
      A recurring window: it opens at each run of the schedule in the zone (cron, or a systemd
      calendar event such as "Sun 03:00"), for MIN minutes.
  cronbeat maintenance list [--monitor ID|NAME] [--active]
      One line per window: id, when, what it covers, and whether it is under way.
  cronbeat maintenance remove ID
      Deletes a window; the monitors it covered are watched as usual from their next run.

A window with neither --monitor nor --tag covers every monitor.

Options:
  --from T, --until T  a time of day (22:00; past today means tomorrow; --until counts from
                       --from), a date and time ("2026-03-08 18:00") on this machine's clock
                       and zone, or one with its zone (2026-03-08T06:40:00Z)
  --for LEN            a length such as 30m, 2h or 1d
  --monitor ID|NAME    a monitor it covers (repeat for more)
  --tag TAG            the monitors with this tag (repeat for more)
  --json               print the API's JSON instead of text
  --url URL            the agent (default: $CRONBEAT_URL, else ${DEFAULT_BASE_URL})

Exit status: 0 done, 1 the API refused (the message names the field) or could not be reached,
or no such monitor or window, 2 wrong usage.

Examples:
  cronbeat maintenance add --from 22:00 --for 2h --tag db --name "database upgrade"
  cronbeat maintenance add --schedule "0 3 * * 0" --timezone Europe/Paris --duration 60 \\
    --monitor "nightly backup"
  cronbeat maintenance list --active
  cronbeat maintenance remove 4`;

const OPTIONS = {
  json: { type: 'boolean' },
  url: { type: 'string' },
  from: { type: 'string' },
  until: { type: 'string' },
  for: { type: 'string' },
  schedule: { type: 'string' },
  timezone: { type: 'string' },
  duration: { type: 'string' },
  monitor: { type: 'string', multiple: true },
  tag: { type: 'string', multiple: true },
  name: { type: 'string' },
  active: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>['values'];

function parse(argv: string[], allowed: Array<keyof typeof OPTIONS>): { values: Values; positionals: string[] } {
  const parsed = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS, strict: true });
  for (const name of Object.keys(parsed.values)) {
    if (!allowed.includes(name as keyof typeof OPTIONS)) {
      throw new UsageError(`--${name} does not go with this sub-command; it takes ${allowed.map((o) => `--${o}`).join(', ')}.`);
    }
  }
  return parsed;
}

/** The one-off window's times from --from, --until and --for, read on this machine's clock. */
function oneOffTimes(values: Values, now: number, zone: string): { starts_at: string; ends_at: string; notes: string[] } {
  if (values.until === undefined && values.for === undefined) throw new UsageError('Say when it ends: --until T or --for LEN (or give --schedule for a recurring window).');
  const start = values.from === undefined ? { until: new Date(now).toISOString() } : renamed(() => snoozeEnd(values.from, undefined, now, zone), '--until', '--from');
  // What was assumed is said of --from too, as its errors are.
  if (start.note !== undefined) start.note = start.note.replaceAll('--until', '--from');
  const from = Date.parse(start.until!);
  const end = snoozeEnd(values.until, values.for, from, zone);
  return { starts_at: start.until!, ends_at: end.until!, notes: [start.note, end.note].filter((n): n is string => n !== undefined) };
}

/** Runs `read`, its usage errors speaking of `option` instead of `was`. */
function renamed<T>(read: () => T, was: string, option: string): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(error.message.replaceAll(was, option), error.exitCode);
    throw error;
  }
}

function whenText(window: MaintenanceWindowResource): string {
  if (window.kind === 'one_off') return `${shortTime(window.starts_at)} – ${shortTime(window.ends_at)}`;
  // Several calendar events, one a line, as `monitor show` writes them.
  return `"${(window.schedule ?? '').replace(/\n/g, '; ')}" ${window.timezone}, ${window.duration} min`;
}

function coversText(window: MaintenanceWindowResource): string {
  const parts = [...window.monitor_ids.map((id) => `monitor ${id}`), ...window.tags.map((tag) => `tag ${tag}`)];
  return parts.length === 0 ? 'every monitor' : parts.join(', ');
}

function stateText(window: MaintenanceWindowResource): string {
  if (window.active) return `in maintenance until ${shortTime(window.active_until)}`;
  return window.next_starts_at ? `next ${shortTime(window.next_starts_at)}` : 'over';
}

function printWindow(window: MaintenanceWindowResource): void {
  const name = window.name ? ` "${window.name}"` : '';
  console.log(printable(`${window.id}${name}: ${whenText(window)}; ${coversText(window)}; ${stateText(window)}`));
}

async function add(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, ['json', 'url', 'from', 'until', 'for', 'schedule', 'timezone', 'duration', 'monitor', 'tag', 'name']);
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  const api = apiFromEnv(values.url);
  const recurring = values.schedule !== undefined || values.timezone !== undefined || values.duration !== undefined;
  if (recurring && (values.from !== undefined || values.until !== undefined || values.for !== undefined)) {
    throw new UsageError('A window is one-off (--from, --until, --for) or recurring (--schedule, --timezone, --duration), not both.');
  }
  const input: MaintenanceWindowInput = { name: values.name ?? null, tags: values.tag ?? [] };
  let notes: string[] = [];
  if (recurring) {
    if (values.duration !== undefined && !/^\d{1,9}$/.test(values.duration)) throw new UsageError(`--duration must be a number of minutes, not "${values.duration}".`);
    Object.assign(input, { schedule: values.schedule ?? null, timezone: values.timezone ?? null, duration: values.duration === undefined ? null : Number(values.duration) });
  } else {
    const times = oneOffTimes(values, Date.now(), machineZone());
    notes = times.notes;
    Object.assign(input, { starts_at: times.starts_at, ends_at: times.ends_at });
  }
  const monitors = [];
  for (const ref of values.monitor ?? []) monitors.push(await findMonitor(api, ref));
  input.monitor_ids = monitors.map((m) => m.id);
  const window = await api.createMaintenanceWindow(input);
  for (const note of notes) console.error(`cronbeat: ${note}`);
  if (values.json) console.log(JSON.stringify(window, null, 2));
  else printWindow(window);
  return 0;
}

async function list(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, ['json', 'url', 'monitor', 'active']);
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  if ((values.monitor?.length ?? 0) > 1) throw new UsageError('Give one --monitor to list the windows that cover it.');
  const api = apiFromEnv(values.url);
  const query: Record<string, string> = {};
  if (values.monitor?.[0] !== undefined) query.monitor_id = String((await findMonitor(api, values.monitor[0])).id);
  if (values.active) query.active = 'true';
  const windows = await api.maintenanceWindows(query);
  if (values.json) console.log(JSON.stringify(windows, null, 2));
  else if (windows.length === 0) console.log('No maintenance windows.');
  else for (const window of windows) printWindow(window);
  return 0;
}

async function remove(argv: string[]): Promise<number> {
  const { values, positionals } = parse(argv, ['url']);
  const [id, extra] = positionals;
  if (id === undefined || !/^[1-9]\d{0,15}$/.test(id)) throw new UsageError('Say which window: its id (see `cronbeat maintenance list`).');
  if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
  await apiFromEnv(values.url).deleteMaintenanceWindow(Number(id));
  console.log(`Removed maintenance window ${id}.`);
  return 0;
}

const ACTIONS: Record<string, (argv: string[]) => Promise<number>> = { add, list, remove };

export const maintenanceCommand: Command = {
  name: 'maintenance',
  subcommands: Object.keys(ACTIONS),
  summary: 'Add, list and remove maintenance windows (no alerts during planned work)',
  help,
  run([action, ...rest]) {
    const run = action === undefined ? undefined : ACTIONS[action];
    if (!run) {
      const close = action ? didYouMean(action, Object.keys(ACTIONS)) : '';
      throw new UsageError(`Say what to do: \`cronbeat maintenance add|list|remove\`${action ? `, not "${action}"` : ''}.${close}`);
    }
    return run(rest);
  },
};
