import { ApiClient, ApiError, type MonitorDetails } from '../../../client/connection/api';
import { MAX_ALERT_AFTER } from '../../../domain/monitors/failureStreak';
import { UsageError } from '../../command';
import { apiKeyOf } from '../../apiKey';
import { didYouMean } from '../../didYouMean';
import { baseUrlOption } from '../ping';
import { shortTime } from '../../shortTime';
import { scheduleWords } from '../../../domain/schedules';
import { printable } from '../../crontab/table';
import { tagOf } from '../../../domain/monitors/ownLine';
import { PROBLEM_WORDS, problemOf } from '../../../domain/alerts/vocabulary';
import { WHOLE_MINUTES, wholeMinutes } from '../../../domain/monitors/minutes';

/* What the `cronbeat monitor` sub-commands share: the API client, finding a monitor, printing one. */

/** Options every `cronbeat monitor` sub-command takes, for node:util parseArgs. */
export const COMMON_OPTIONS = { json: { type: 'boolean' }, url: { type: 'string' } } as const;

/** The API at --url (or CRONBEAT_URL), with the token of CRONBEAT_API_TOKEN. */
export function apiFromEnv(url: string | undefined): ApiClient {
  const token = apiKeyOf(undefined);
  if (!token) throw new UsageError('An API token is needed: set CRONBEAT_API_TOKEN (make one with `cronbeat token create`).');
  return new ApiClient(baseUrlOption(url), token);
}

/** The monitor of id `id`; null when there is none. */
async function monitorById(api: ApiClient, id: number): Promise<MonitorDetails | null> {
  try {
    return await api.monitor(id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * The monitor a command line names: `#ID` by its id alone; a number by its id, or else its exact
 * name (refused when the number is one monitor's id and another's name: a pause or a delete must
 * never take the other); anything else by its exact name (refused when two share it). Exits 1
 * when there is none.
 */
export async function findMonitor(api: ApiClient, ref: string | undefined): Promise<MonitorDetails> {
  if (ref === undefined) throw new UsageError('Say which monitor: its id (see `cronbeat monitor list`) or its name.');
  const explicit = /^#([1-9]\d{0,15})$/.exec(ref);
  if (explicit) {
    const found = await monitorById(api, Number(explicit[1]));
    if (!found) throw new UsageError(`No monitor has the id ${explicit[1]}. \`cronbeat monitor list\` shows them.`, 1);
    return found;
  }
  const byId = /^[1-9]\d{0,15}$/.test(ref) ? await monitorById(api, Number(ref)) : null;
  const monitors = await api.monitors();
  const named = monitors.filter((m) => m.name === ref);
  const other = byId ? named.find((m) => m.id !== byId.id) : undefined;
  if (byId && other) {
    throw new UsageError(`"${ref}" is the id of "${printable(byId.name)}" and the name of monitor ${other.id}: say #${byId.id} for the one, #${other.id} for the other.`);
  }
  if (byId) return byId;
  if (named.length === 1) return named[0];
  if (named.length > 1) {
    throw new UsageError(`${named.length} monitors are named "${ref}" (ids ${named.map((m) => m.id).join(', ')}): give the id.`);
  }
  // Matched on the names as they are, shown as one line each: an agent's name may hold a line break.
  const close = printable(didYouMean(ref, monitors.map((m) => m.name)));
  throw new UsageError(`No monitor has the id or name "${ref}".${close || ' `cronbeat monitor list` shows them.'}`, 1);
}

// Here too for the monitor sub-commands; its own file so that `spool list` (the job side) loads no API client.
export { shortTime };

/** A monitor's status in the one vocabulary: a failed one says which (missed, stuck or failed), as the dashboard's badge does. */
export function statusWord(monitor: MonitorDetails): string {
  const problem = monitor.status === 'failed' ? problemOf(monitor.alert_reason_data) : null;
  return problem ? PROBLEM_WORDS[problem].word : monitor.status;
}

/** What a monitor waits for, in words: its next deadline, its pause, or why it waits for nothing. */
export function dueText(monitor: MonitorDetails): string {
  if (monitor.status === 'paused') return monitor.paused_until ? `paused until ${shortTime(monitor.paused_until)}` : 'paused until resumed';
  // A failure still counting towards its alert (alert after N) keeps its next run's deadline.
  if (monitor.status === 'failed' && monitor.next_due_at === null) return `${statusWord(monitor)}: waits for a success pulse`;
  return monitor.next_due_at ? shortTime(monitor.next_due_at) : 'no run ahead';
}

/** Prints the monitor as JSON or as aligned "field: value" lines (with `maintenance`, the windows under way over it, in words). */
export function printMonitor(monitor: MonitorDetails, json: boolean | undefined, maintenance?: string): void {
  if (json) {
    console.log(JSON.stringify(monitor, null, 2));
    return;
  }
  const lines: Array<[string, string]> = [
    ['Monitor', `${monitor.name} (id ${monitor.id})`],
    ['Status', statusWord(monitor)],
    ['Schedule', `${monitor.schedule.replace(/\n/g, '; ')} (${scheduleWords(monitor.schedule, monitor.timezone) ?? monitor.timezone})`],
    ['Grace', `${monitor.duration} min after each due time`],
    ...(monitor.max_runtime === undefined ? [] : [['Max run time', `${monitor.max_runtime} min after a start, then it is stuck`] as [string, string]]),
    ['Alerts', alertsWords(monitor)],
    ['Next due', dueText(monitor)],
    ['Last pulse', monitor.last_pulse_at === null ? 'never' : shortTime(monitor.last_pulse_at)],
    ['Project', monitor.project_id === null ? '-' : String(monitor.project_id)],
    ['Tags', monitor.tags && monitor.tags.length > 0 ? monitor.tags.join(' ') : '-'],
    // Null for a read-only key: a pulse token can fail or recover the monitor, so only a full key sees it.
    ['Pulse URL', monitor.pulse_url ?? 'hidden (only a full key sees pulse tokens)'],
  ];
  if (monitor.slug) lines.push(['Job line', `cronbeat run --name ${monitor.slug} … (the line's schedule, zone and grace win)`]);
  if (maintenance) lines.splice(2, 0, ['Maintenance', maintenance]);
  if (monitor.alert_reason) lines.splice(2, 0, ['Alert', monitor.alert_reason]);
  const width = Math.max(...lines.map(([label]) => label.length)) + 1;
  for (const [label, value] of lines) console.log(`${`${label}:`.padEnd(width)} ${printable(value)}`);
}

/** --tags "a,b": each a tag as the API takes it (tagOf), or a usage error naming the one that is not. */
export function tagsOption(value: string): string[] {
  const words = value.split(',').map((word) => word.trim()).filter((word) => word !== '');
  return words.map((word) => {
    const tag = tagOf(word);
    if (tag === undefined) throw new UsageError(`--tags: "${word}" is not a tag (letters, digits, "_", ".", ":" and "-", up to 50, starting with a letter or digit).`);
    return tag;
  });
}

/** "at the first failure", "after 3 failures in a row". */
function alertsAfterWords(n: number): string {
  return n === 1 ? 'at the first failure' : `after ${n} failures in a row`;
}

/** When it alerts, and why a failed monitor has not yet: "after 3 failures in a row (1 so far: none sent yet)", "held while flapping since …". */
function alertsWords(monitor: MonitorDetails): string {
  if (monitor.flapping_since) return `held while it flaps (since ${shortTime(monitor.flapping_since)}), until an hour without a change`;
  const after = monitor.alert_after ?? 1;
  const sofar = monitor.failures_in_a_row;
  const waiting = monitor.status === 'failed' && sofar !== undefined && sofar < after ? ` (${sofar} so far: none sent yet)` : '';
  return `${alertsAfterWords(after)}${waiting}`;
}

/** --alert-after as the failure in a row that alerts: a whole number from 1 to MAX_ALERT_AFTER. */
export function alertAfterOption(value: string): number {
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > MAX_ALERT_AFTER) {
    throw new UsageError(`--alert-after (the failure in a row that alerts) must be a whole number from 1 to ${MAX_ALERT_AFTER}, not "${value}".`);
  }
  return Number(value);
}

/** --max-runtime as whole minutes, in the words `run --name` uses for it; `none` (edit only) takes it off. */
export function maxRuntimeOption(value: string, noneTakesOff = false): number | null {
  if (noneTakesOff && value === 'none') return null;
  const minutes = wholeMinutes(value);
  if (minutes === null) throw new UsageError(`--max-runtime (the minutes a started run may take before it is stuck) must be ${WHOLE_MINUTES}, not "${value}".`);
  return minutes;
}

/** --grace as whole minutes from 1 (a grace of 0 would fail every run that is a second late). */
export function graceOption(grace: string): number {
  const minutes = wholeMinutes(grace);
  if (minutes === null) throw new UsageError(`--grace (the minutes a run may be late) must be ${WHOLE_MINUTES}, not "${grace}".`);
  return minutes;
}
