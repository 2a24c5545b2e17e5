import { parseArgs } from '../../parseOptions';
import { UsageError } from '../../command';
import { printTable } from '../../crontab/table';
import { tagOf } from '../../../domain/monitors/ownLine';
import { apiFromEnv, COMMON_OPTIONS, dueText, shortTime, statusWord } from './shared';

// The API's statuses, and the one vocabulary's words for a failed monitor (missed, stuck: failed ones, told apart here).
const STATUSES = ['new', 'monitoring', 'running', 'failed', 'paused', 'missed', 'stuck'];

/** `cronbeat monitor list [--status S] [--project N] [--tag T] [--json]` */
export async function listMonitors(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...COMMON_OPTIONS, status: { type: 'string' }, project: { type: 'string' }, tag: { type: 'string' } },
  });
  if (positionals.length > 0) throw new UsageError(`Unexpected argument "${positionals[0]}".`);
  if (values.status !== undefined && !STATUSES.includes(values.status)) {
    throw new UsageError(`--status must be one of ${STATUSES.join(', ')}, not "${values.status}".`);
  }
  if (values.project !== undefined && !/^[1-9]\d{0,15}$/.test(values.project)) {
    throw new UsageError(`--project must be a project id (a whole number), not "${values.project}".`);
  }
  if (values.tag !== undefined && !tagOf(values.tag)) {
    throw new UsageError(`--tag must be a tag (letters, digits, "_", ".", ":" and "-"), not "${values.tag}".`);
  }
  const query: Record<string, string> = {};
  if (values.tag) query.tag = tagOf(values.tag)!;
  // Missed and stuck are failed monitors to the API, told apart by their reason.
  const problem = values.status === 'missed' || values.status === 'stuck' ? values.status : null;
  if (values.status) query.status = problem ? 'failed' : values.status;
  if (values.project) query.project_id = values.project;
  const all = await apiFromEnv(values.url).monitors(query);
  const monitors = problem ? all.filter((m) => statusWord(m) === problem) : all;
  if (values.json) {
    console.log(JSON.stringify(monitors, null, 2));
  } else if (monitors.length === 0) {
    console.log(values.status || values.project || values.tag ? 'No monitor matches.' : 'No monitors yet.');
  } else {
    const rows = monitors.map((m) => ({
      id: m.id,
      name: m.name,
      status: statusWord(m),
      // A calendar schedule of several lines shows on one.
      schedule: `${m.schedule.replace(/\n/g, '; ')} ${m.timezone}`,
      next_due: dueText(m),
      last_pulse: m.last_pulse_at === null ? 'never' : shortTime(m.last_pulse_at),
      tags: (m.tags ?? []).join(' '),
    }));
    printTable(rows, ['id', 'name', 'status', 'schedule', 'next_due', 'last_pulse', 'tags']);
  }
  return 0;
}
