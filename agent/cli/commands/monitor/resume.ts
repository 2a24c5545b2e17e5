import { parseArgs } from '../../parseOptions';
import { UsageError } from '../../command';
import { apiFromEnv, COMMON_OPTIONS, dueText, findMonitor, printMonitor } from './shared';
import { printable } from '../../crontab/table';

/** `cronbeat monitor resume ID|NAME [--json]` */
export async function resumeMonitor(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: COMMON_OPTIONS });
  if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}".`);
  const api = apiFromEnv(values.url);
  const monitor = await api.resumeMonitor((await findMonitor(api, positionals[0])).id);
  if (values.json) printMonitor(monitor, true);
  else console.log(printable(`Resumed "${monitor.name}": next due ${dueText(monitor)}.`));
  return 0;
}
