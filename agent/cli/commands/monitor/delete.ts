import { parseArgs } from '../../parseOptions';
import { UsageError } from '../../command';
import { apiFromEnv, COMMON_OPTIONS, findMonitor } from './shared';
import { printable } from '../../crontab/table';

/**
 * `cronbeat monitor delete ID|NAME --yes`: deletes the monitor and its history. Refuses without
 * --yes, saying what would go: there is no undo, and a name typed from memory may be the wrong one.
 */
export async function deleteMonitor(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON_OPTIONS, yes: { type: 'boolean' } } });
  if (positionals.length > 1) throw new UsageError(`Delete one monitor at a time, not also "${positionals[1]}".`);
  const api = apiFromEnv(values.url);
  const monitor = await findMonitor(api, positionals[0]);
  if (!values.yes) {
    throw new UsageError(
      `Deleting "${printable(monitor.name)}" (id ${monitor.id}) removes it and its whole history of runs, and cannot be undone; crontab lines that ping it will be refused. Add --yes to delete it (or \`cronbeat monitor pause\` to only stop its alerts).`,
    );
  }
  await api.deleteMonitor(monitor.id);
  if (values.json) console.log(JSON.stringify({ deleted: monitor.id }));
  else console.log(printable(`Deleted "${monitor.name}" (id ${monitor.id}).`));
  return 0;
}
